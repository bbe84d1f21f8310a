// A labelled input of the site's and the console's forms, named as its id (the forms read their
// name), with an optional hint below it. Passwords take the same rules everywhere.
import type { ComponentProps, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react'

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>
type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name' | 'children'>

export function Field({
  id,
  label,
  hint,
  children,
  ...input
}: {
  id: string
  label: ReactNode
  hint?: ReactNode
  /** What follows the input (a field's own error). */
  children?: ReactNode
} & InputProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={id} {...input} />
      {hint === undefined ? null : <small className="field-hint">{hint}</small>}
      {children}
    </div>
  )
}

/** A labelled select, named as its id; `after` follows it (a field's own error). */
export function SelectField({
  id,
  label,
  children,
  after,
  ...select
}: {
  id: string
  label: ReactNode
  /** The options. */
  children: ReactNode
  after?: ReactNode
} & SelectProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={id} {...select}>
        {children}
      </select>
      {after}
    </div>
  )
}

/** A search box whose label only screen readers read (the AI tools', the docs', the playground's). */
export function SearchField({
  id,
  label,
  ...input
}: { id: string; label: string } & Omit<ComponentProps<'input'>, 'id' | 'type'>) {
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <input id={id} type="search" {...input} />
    </>
  )
}

/** The account's password as it is now (to confirm a change), or a new one (10 characters). */
export function PasswordField({
  id,
  label,
  isNew = false,
  hint,
}: {
  id: string
  label: ReactNode
  isNew?: boolean
  hint?: ReactNode
}) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      type="password"
      autoComplete={isNew ? 'new-password' : 'current-password'}
      {...(isNew ? { minLength: 10 } : {})}
      required
    />
  )
}
