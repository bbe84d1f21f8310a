// One parameter of an operation (or a preset variable) as a form control generated from its
// catalogue type (SPEC §5): numbers with their range, enums, colours (6/8 hex with alpha),
// booleans, boxes, lists and files. An empty value means "the default applies".
import { checkParamValue, type ParamSpec } from '@tessera/url'
import { useId } from 'react'

export interface FileChoice {
  /** The value written in the URL (a file id). */
  value: string
  label: string
}

export interface ParamControlProps {
  spec: ParamSpec
  /** The value in the URL, or undefined when the default applies. */
  value: string | undefined
  onChange: (value: string) => void
  onReset: () => void
  /** Files the `file` type can pick from. */
  files?: readonly FileChoice[]
  /** Why no files can be picked (visitors). */
  filesNote?: string
}

/** The problem with a value, as the URL language reports it, or undefined when it is valid. */
export function paramProblem(spec: ParamSpec, value: string | undefined): string | undefined {
  if (value === undefined || value === '' || value.startsWith('$')) return undefined
  const check = checkParamValue(value, spec, spec.title)
  if (!check.ok) return check.message
  const number = typeof check.value === 'number' ? check.value : undefined
  if (number !== undefined && spec.min !== undefined && number < spec.min)
    return `${spec.title} must be at least ${spec.min}`
  if (number !== undefined && spec.max !== undefined && number > spec.max)
    return `${spec.title} must be at most ${spec.max}`
  return undefined
}

function defaultText(spec: ParamSpec): string {
  return spec.default === null || spec.default === '' ? 'none' : String(spec.default)
}

/** `rrggbb` and alpha 0–255 of a 6 or 8 digit hex colour. */
function splitColor(hex: string): { rgb: string; alpha: number } {
  const clean = /^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(hex) ? hex.toLowerCase() : '000000'
  return {
    rgb: clean.slice(0, 6),
    alpha: clean.length === 8 ? Number.parseInt(clean.slice(6), 16) : 255,
  }
}

function joinColor(rgb: string, alpha: number): string {
  return alpha >= 255 ? rgb : `${rgb}${Math.round(alpha).toString(16).padStart(2, '0')}`
}

export function ParamControl({
  spec,
  value,
  onChange,
  onReset,
  files = [],
  filesNote,
}: ParamControlProps) {
  const id = useId()
  const problem = paramProblem(spec, value)
  const hintId = `${id}-hint`
  const current = value ?? ''
  const common = {
    id,
    'aria-describedby': hintId,
    'aria-invalid': problem === undefined ? undefined : true,
  }
  let control: React.ReactNode
  switch (spec.type) {
    case 'integer':
    case 'float': {
      const step = spec.type === 'integer' ? 1 : 0.1
      const hasRange = spec.min !== undefined && spec.max !== undefined
      control = (
        <div className="param-row">
          {hasRange ? (
            <input
              type="range"
              aria-label={`${spec.title} slider`}
              min={spec.min}
              max={spec.max}
              step={step}
              value={current === '' ? String(spec.default ?? spec.min) : current}
              onChange={(event) => onChange(event.target.value)}
            />
          ) : null}
          <input
            {...common}
            type="number"
            inputMode={spec.type === 'integer' ? 'numeric' : 'decimal'}
            min={spec.min}
            max={spec.max}
            step={step}
            placeholder={defaultText(spec)}
            value={current}
            onChange={(event) => onChange(event.target.value)}
          />
        </div>
      )
      break
    }
    case 'enum':
      control = (
        <select {...common} value={current} onChange={(event) => onChange(event.target.value)}>
          <option value="">Default ({defaultText(spec)})</option>
          {(spec.enum ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )
      break
    case 'boolean':
      control = (
        <select {...common} value={current} onChange={(event) => onChange(event.target.value)}>
          <option value="">Default ({defaultText(spec)})</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      )
      break
    case 'color': {
      const color = splitColor(current === '' ? String(spec.default ?? '000000') : current)
      control = (
        <div className="param-row">
          <input
            type="color"
            aria-label={`${spec.title} picker`}
            value={`#${color.rgb}`}
            onChange={(event) => onChange(joinColor(event.target.value.slice(1), color.alpha))}
          />
          <input
            {...common}
            type="text"
            spellCheck={false}
            placeholder={defaultText(spec)}
            value={current}
            onChange={(event) => onChange(event.target.value.replace(/^#/, ''))}
          />
          <label className="param-alpha">
            <span>Alpha</span>
            <input
              type="range"
              min={0}
              max={255}
              value={color.alpha}
              aria-label={`${spec.title} alpha`}
              onChange={(event) => onChange(joinColor(color.rgb, Number(event.target.value)))}
            />
          </label>
        </div>
      )
      break
    }
    case 'bbox': {
      const parts = current === '' ? ['', '', '', ''] : current.split('_')
      const labels = ['Top', 'Left', 'Height', 'Width']
      control = (
        <div className="param-row param-bbox" id={id}>
          {labels.map((label, index) => (
            <input
              key={label}
              type="number"
              aria-label={`${spec.title} ${label.toLowerCase()}`}
              placeholder={label}
              value={parts[index] ?? ''}
              onChange={(event) => {
                const next = [...parts]
                next[index] = event.target.value
                onChange(next.every((part) => part === '') ? '' : next.join('_'))
              }}
            />
          ))}
        </div>
      )
      break
    }
    case 'file':
      control =
        files.length > 0 ? (
          <select {...common} value={current} onChange={(event) => onChange(event.target.value)}>
            <option value="">Choose a file</option>
            {files.map((file) => (
              <option key={file.value} value={file.value}>
                {file.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...common}
            type="text"
            spellCheck={false}
            placeholder="A file id"
            value={current}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      break
    default:
      // string, bboxList and polygonList: typed as text (lists use _ and must parse as JSON).
      control = (
        <input
          {...common}
          type="text"
          spellCheck={false}
          placeholder={spec.type === 'string' ? defaultText(spec) : '[[0,0,10,10]]'}
          value={current}
          onChange={(event) => onChange(event.target.value)}
        />
      )
  }
  return (
    <div className="param" data-param={spec.id}>
      <div className="param-head">
        <label htmlFor={id}>
          {spec.title} <code>{spec.id}</code>
        </label>
        <button
          type="button"
          className="param-reset"
          onClick={onReset}
          disabled={value === undefined}
          aria-label={`Reset ${spec.title}`}
        >
          Reset
        </button>
      </div>
      {control}
      <p id={hintId} className={problem === undefined ? 'param-hint' : 'param-hint is-error'}>
        {problem ??
          [
            spec.type,
            spec.min !== undefined && spec.max !== undefined ? `${spec.min} to ${spec.max}` : '',
            `default ${defaultText(spec)}`,
            spec.type === 'file' && files.length === 0 ? (filesNote ?? '') : '',
          ]
            .filter(Boolean)
            .join(' · ')}
      </p>
    </div>
  )
}

/** A preset variable's declaration as a catalogue parameter, so it gets the same controls. */
export function variableSpec(
  name: string,
  variable: {
    type: string
    default?: string | number | boolean | null
    enum?: readonly string[]
    min?: number
    max?: number
  },
): ParamSpec {
  return {
    id: name,
    name,
    title: `$${name}`,
    type: variable.type as ParamSpec['type'],
    default: variable.default ?? null,
    required: false,
    ...(variable.enum === undefined ? {} : { enum: variable.enum }),
    ...(variable.min === undefined ? {} : { min: variable.min }),
    ...(variable.max === undefined ? {} : { max: variable.max }),
  }
}
