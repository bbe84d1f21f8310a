// One input of a prediction's form, by the kind its schema gives: a checkbox, a choice, a number
// or text, with its help and whether it was refused.
import type { FormField } from '../lib/predictions.ts'

export function PredictionField({
  field,
  value,
  onChange,
  invalid,
}: {
  field: FormField
  value: string
  onChange: (value: string) => void
  invalid: boolean
}) {
  const id = `field-${field.name}`
  const help = field.description === '' ? null : <small>{field.description}</small>
  if (field.kind === 'checkbox') {
    return (
      <div className="field is-checkbox">
        <label htmlFor={id}>
          <input
            id={id}
            name={field.name}
            type="checkbox"
            checked={value === 'true'}
            onChange={(event) => onChange(event.target.checked ? 'true' : 'false')}
          />{' '}
          {field.label}
        </label>
        {help}
      </div>
    )
  }
  if (field.kind === 'select') {
    return (
      <div className="field">
        <label htmlFor={id}>{field.label}</label>
        <select
          id={id}
          name={field.name}
          value={value}
          aria-invalid={invalid}
          onChange={(event) => onChange(event.target.value)}
        >
          {field.required ? null : <option value="">Default</option>}
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        {help}
      </div>
    )
  }
  const numeric = field.kind === 'integer' || field.kind === 'number'
  return (
    <div className="field">
      <label htmlFor={id}>
        {field.label}
        {field.required ? ' (required)' : ''}
      </label>
      <input
        id={id}
        name={field.name}
        type={numeric ? 'number' : 'text'}
        inputMode={numeric ? (field.kind === 'integer' ? 'numeric' : 'decimal') : undefined}
        step={field.kind === 'integer' ? 1 : numeric ? 'any' : undefined}
        min={field.min}
        max={field.max}
        value={value}
        required={field.required}
        aria-invalid={invalid}
        placeholder={
          field.kind === 'image' ? 'photos/portrait.jpg or https://…' : numeric ? '' : undefined
        }
        onChange={(event) => onChange(event.target.value)}
      />
      {field.kind === 'image' ? (
        <small>
          A file of your organisation (its path), the delivery URL of one of its originals, or a
          public http(s) URL.
        </small>
      ) : (
        help
      )}
    </div>
  )
}
