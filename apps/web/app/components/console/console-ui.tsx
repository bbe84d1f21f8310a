// The small pieces every console page shows: a copy button, a button that asks before it
// removes, a modal dialog and its buttons, a call's error, a date.
import { useEffect, useRef, useState } from 'react'

/** Copies text and says so for a moment. */
export function CopyButton({
  text,
  label = 'Copy',
  className = 'button is-small is-secondary',
  testId,
}: {
  text: string
  label?: string
  className?: string
  testId?: string
}) {
  const [done, setDone] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setDone('copied')
    } catch {
      setDone('failed')
    }
    setTimeout(() => setDone('idle'), 2000)
  }
  return (
    <button type="button" className={className} onClick={copy} data-testid={testId}>
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed' : label}
    </button>
  )
}

/**
 * The button of a change that cannot be taken back (revoke, remove, delete, leave): it asks
 * `question` with the browser's confirm and calls `onConfirm` only when the answer is yes.
 */
export function ConfirmButton({
  question,
  onConfirm,
  disabled,
  children,
}: {
  question: string
  onConfirm: () => unknown
  disabled?: boolean
  children: React.ReactNode
}) {
  return (
    <button
      type="button"
      className="button is-small is-danger"
      disabled={disabled}
      onClick={() => {
        if (window.confirm(question)) void onConfirm()
      }}
    >
      {children}
    </button>
  )
}

/**
 * A modal dialog on the native <dialog>: focus moves in and is kept inside, Escape closes it,
 * and focus goes back to where it was.
 */
export function Dialog({
  title,
  open,
  onClose,
  children,
  testId,
}: {
  title: string
  open: boolean
  onClose: () => void
  children: React.ReactNode
  testId?: string
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const opener = useRef<Element | null>(null)
  useEffect(() => {
    const dialog = ref.current
    if (dialog === null) return
    if (open && !dialog.open) {
      opener.current = document.activeElement
      dialog.showModal()
    } else if (!open && dialog.open) {
      dialog.close()
    }
    if (!open && opener.current instanceof HTMLElement) {
      opener.current.focus()
      opener.current = null
    }
  }, [open])
  const titleId = `${testId ?? 'dialog'}-title`
  return (
    <dialog
      ref={ref}
      className="console-dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
    >
      {open ? (
        <>
          <div className="console-dialog-head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="button is-ghost is-small" onClick={onClose}>
              Close
            </button>
          </div>
          {children}
        </>
      ) : null}
    </dialog>
  )
}

/** A dialog form's buttons: its own (`children`), then Cancel, which closes it. */
export function DialogButtons({
  onClose,
  children,
}: {
  onClose: () => void
  children: React.ReactNode
}) {
  return (
    <div className="button-row">
      {children}
      <button type="button" className="button is-ghost" onClick={onClose}>
        Cancel
      </button>
    </div>
  )
}

export function ErrorText({ message, testId }: { message: string | null; testId?: string }) {
  if (message === null) return null
  return (
    <div className="form-alert is-error" role="alert" data-testid={testId ?? 'action-error'}>
      {message}
    </div>
  )
}

export function formatDate(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—'
  const date = new Date(value)
  return Number.isNaN(date.getTime())
    ? '—'
    : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })
}
