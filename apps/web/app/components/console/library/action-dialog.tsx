// The library's dialog for the actions that ask first: a new folder, rename, move, tag (tags
// added to every chosen file), and delete (which counts what a folder holds before it is
// confirmed).
import { type FormEvent, useEffect, useState } from 'react'
import type { ConsoleApi, LibraryItem } from '../../../lib/console-api.ts'
import { problemOf } from '../../../lib/console-api.ts'
import { useAction } from '../../use-action.ts'
import { useConsole } from '../console-context.tsx'
import { Dialog, DialogButtons, ErrorText } from '../console-ui.tsx'
import {
  deleteCountText,
  deletedNotice,
  keyOf,
  type Pending,
  parseTags,
  taggedNotice,
} from './library-state.ts'

/** Files and folders under a folder, counted by walking it (bounded, for the delete question). */
async function countFolder(
  api: ConsoleApi,
  path: string,
): Promise<{ files: number; folders: number; partial: boolean }> {
  let files = 0
  let folders = 0
  const queue = [path]
  let calls = 0
  while (queue.length > 0) {
    const next = queue.shift() as string
    for (let pageNo = 1; ; pageNo++) {
      if (++calls > 40) return { files, folders, partial: true }
      const answer = await api.listFiles({ path: next, pageNo, pageSize: 100 })
      for (const item of answer.items) {
        if (item.type === 'folder') {
          folders += 1
          queue.push(item.fullPath)
        } else files += 1
      }
      if (!answer.page.hasNext) break
    }
  }
  return { files, folders, partial: false }
}

/** The dialog's confirm button, per action. */
const CONFIRM_LABELS: Record<Pending['kind'], string> = {
  'new-folder': 'Create',
  rename: 'Rename',
  move: 'Move',
  delete: 'Delete',
  tag: 'Add tags',
}

export function ActionDialog({
  pending,
  path,
  onClose,
  onDone,
  moveItems,
}: {
  pending: Pending | null
  path: string
  onClose: () => void
  onDone: (message: string, foldersChanged: boolean, removed: string[]) => Promise<void>
  moveItems: (items: LibraryItem[], destination: string) => Promise<void>
}) {
  const { api } = useConsole()
  const [value, setValue] = useState('')
  // The dialog stays open with what was typed, and the API's reason.
  const { busy, error, setError, run } = useAction()
  const [count, setCount] = useState<string | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another action opens
  useEffect(() => {
    setError(null)
    setCount(null)
    if (pending?.kind === 'rename') setValue(pending.item.name)
    else if (pending?.kind === 'move') setValue(path)
    else setValue('')
    if (pending?.kind === 'delete') {
      const folders = pending.items.filter((item) => item.type === 'folder')
      const files = pending.items.length - folders.length
      if (folders.length === 0) {
        setCount(deleteCountText(files, []))
      } else {
        setCount('Counting what is inside…')
        void Promise.all(folders.map((folder) => countFolder(api, folder.fullPath)))
          .then((counts) => setCount(deleteCountText(files, counts)))
          .catch((reason: unknown) =>
            setCount(`Could not count the contents: ${problemOf(reason)}`),
          )
      }
    }
  }, [pending])

  if (pending === null)
    return (
      <Dialog title="" open={false} onClose={onClose}>
        {null}
      </Dialog>
    )

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (pending.kind === 'new-folder') {
      void run(async () => {
        const folder = await api.createFolder(value.trim(), path)
        await onDone(`Folder ${folder.name} made.`, true, [])
      })
    } else if (pending.kind === 'rename') {
      const item = pending.item
      void run(async () => {
        if (item.type === 'file') await api.updateFile(item._id, { name: value.trim() })
        else await api.updateFolder(item.fullPath, { name: value.trim() })
        await onDone(`Renamed ${item.name} to ${value.trim()}.`, item.type === 'folder', [])
      })
    } else if (pending.kind === 'move') {
      void run(async () => {
        await moveItems(pending.items, value)
        onClose()
      })
    } else if (pending.kind === 'tag') {
      const added = parseTags(value)
      void run(async () => {
        let tagged = 0
        for (const item of pending.items) {
          if (item.type !== 'file') continue
          const tags = [...new Set([...(item.tags ?? []), ...added])]
          await api.updateFile(item._id, { tags })
          tagged += 1
        }
        await onDone(taggedNotice(tagged, added.join(', ')), false, [])
      })
    } else {
      void run(async () => {
        let files = 0
        let folders = 0
        const removed: string[] = []
        for (const item of pending.items) {
          if (item.type === 'file') {
            await api.deleteFile(item._id)
            files += 1
          } else {
            const answer = await api.deleteFolder(item.fullPath, true)
            files += answer.deleted.files
            folders += 1
          }
          removed.push(keyOf(item))
        }
        await onDone(deletedNotice(files, folders), folders > 0, removed)
      })
    }
  }

  const titles = {
    'new-folder': 'New folder',
    rename: 'Rename',
    move: 'Move to a folder',
    tag: 'Add tags',
    delete: 'Delete for good?',
  }
  return (
    <Dialog title={titles[pending.kind]} open onClose={onClose} testId="action-dialog">
      <form onSubmit={submit}>
        {pending.kind === 'delete' ? (
          <>
            <ul className="dialog-list">
              {pending.items.slice(0, 10).map((item) => (
                <li key={keyOf(item)}>
                  {item.type === 'folder' ? `Folder ${item.fullPath}` : item.fullPath}
                </li>
              ))}
              {pending.items.length > 10 ? <li>and {pending.items.length - 10} more</li> : null}
            </ul>
            <p data-testid="delete-count">{count}</p>
            <p>Delivery URLs of deleted files stop working at once.</p>
          </>
        ) : (
          <div className="field">
            <label htmlFor="dialog-value">
              {pending.kind === 'move'
                ? 'Destination folder (empty for All files)'
                : pending.kind === 'tag'
                  ? 'Tags to add (comma-separated)'
                  : 'Name'}
            </label>
            <input
              id="dialog-value"
              value={value}
              autoFocus
              required={pending.kind !== 'move'}
              onChange={(event) => setValue(event.target.value)}
              data-testid="dialog-input"
            />
          </div>
        )}
        <ErrorText message={error} testId="dialog-error" />
        <DialogButtons onClose={onClose}>
          <button
            type="submit"
            className={`button ${pending.kind === 'delete' ? 'is-danger' : 'is-primary'}`}
            disabled={busy}
            data-testid="dialog-confirm"
          >
            {CONFIRM_LABELS[pending.kind]}
          </button>
        </DialogButtons>
      </form>
    </Dialog>
  )
}
