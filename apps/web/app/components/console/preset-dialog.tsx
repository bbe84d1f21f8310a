// The presets page's dialog: a new preset or an edit, with its chain, and its `$variables` with
// their types and defaults (the rows follow the chain as it is typed).
import { type FormEvent, useState } from 'react'
import type { Preset, PresetParam } from '../../lib/console-api.ts'
import { useAction } from '../use-action.ts'
import { useConsole } from './console-context.tsx'
import { Dialog, DialogButtons, ErrorText } from './console-ui.tsx'

const PARAM_TYPES = ['integer', 'float', 'string', 'color', 'boolean', 'enum', 'file', 'bbox']

interface VariableRow {
  name: string
  type: string
  default: string
}

/** `$variables` used in a chain, in order of first use. */
export function variablesOf(transformation: string): string[] {
  return [
    ...new Set(
      [...transformation.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string),
    ),
  ]
}

function toParams(rows: VariableRow[]): Record<string, PresetParam> {
  const params: Record<string, PresetParam> = {}
  for (const row of rows) {
    const param: PresetParam = { type: row.type }
    if (row.default !== '') {
      param.default =
        row.type === 'integer' || row.type === 'float'
          ? Number(row.default)
          : row.type === 'boolean'
            ? row.default === 'true'
            : row.default
    }
    params[row.name] = param
  }
  return params
}

function fromParams(params: Record<string, PresetParam>): VariableRow[] {
  return Object.entries(params).map(([name, param]) => ({
    name,
    type: param.type,
    default: param.default === undefined ? '' : String(param.default),
  }))
}

export function PresetDialog({
  editing,
  onClose,
  onSaved,
}: {
  editing: Preset | 'new' | null
  onClose: () => void
  onSaved: () => Promise<void>
}) {
  const { api } = useConsole()
  const [name, setName] = useState('')
  const [chain, setChain] = useState('')
  const [rows, setRows] = useState<VariableRow[]>([])
  const { busy, error, setError, run } = useAction()
  const [openedFor, setOpenedFor] = useState<Preset | 'new' | null>(null)
  if (editing !== openedFor) {
    setOpenedFor(editing)
    setError(null)
    if (editing === 'new') {
      const fromUrl =
        typeof window === 'undefined'
          ? null
          : new URLSearchParams(window.location.search).get('transformation')
      setName('')
      setChain(fromUrl ?? '')
      setRows([])
    } else if (editing !== null) {
      setName(editing.presetName)
      setChain(editing.transformation)
      setRows(fromParams(editing.params))
    }
  }
  // Every $variable of the chain gets a row; rows for removed variables go.
  const syncRows = (text: string) => {
    setChain(text)
    const names = variablesOf(text)
    setRows((current) =>
      names.map(
        (variable) =>
          current.find((row) => row.name === variable) ?? {
            name: variable,
            type: 'integer',
            default: '',
          },
      ),
    )
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    await run(async () => {
      if (editing === 'new') {
        await api.createPreset({
          presetName: name.trim(),
          transformation: chain.trim(),
          params: toParams(rows),
        })
      } else if (editing !== null) {
        await api.updatePreset(editing.presetName, {
          transformation: chain.trim(),
          params: toParams(rows),
        })
      }
      await onSaved()
    })
  }
  return (
    <Dialog
      title={
        editing === 'new' ? 'New preset' : `Edit p:${editing === null ? '' : editing.presetName}`
      }
      open={editing !== null}
      onClose={onClose}
      testId="preset-dialog"
    >
      <form onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor="preset-name">Name (letters, digits, _ and -)</label>
          <input
            id="preset-name"
            value={name}
            disabled={editing !== 'new'}
            onChange={(event) => setName(event.target.value)}
            pattern="[A-Za-z0-9_-]{1,64}"
            required
            data-testid="preset-name"
          />
        </div>
        <div className="field">
          <label htmlFor="preset-chain">Transformation chain (use $name for a variable)</label>
          <textarea
            id="preset-chain"
            rows={3}
            value={chain}
            onChange={(event) => syncRows(event.target.value)}
            required
            placeholder="t.resize(w:$w,h:$w)~t.toFormat(f:webp)"
            data-testid="preset-chain"
          />
        </div>
        {rows.length > 0 ? (
          <table className="param-table">
            <caption>Variables</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Default</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={row.name}>
                  <td>
                    <code>${row.name}</code>
                  </td>
                  <td>
                    <select
                      aria-label={`Type of ${row.name}`}
                      value={row.type}
                      onChange={(event) =>
                        setRows(
                          rows.map((r, i) =>
                            i === index ? { ...r, type: event.target.value } : r,
                          ),
                        )
                      }
                    >
                      {PARAM_TYPES.map((type) => (
                        <option key={type}>{type}</option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <input
                      aria-label={`Default of ${row.name}`}
                      value={row.default}
                      onChange={(event) =>
                        setRows(
                          rows.map((r, i) =>
                            i === index ? { ...r, default: event.target.value } : r,
                          ),
                        )
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <ErrorText message={error} testId="preset-error" />
        <DialogButtons onClose={onClose}>
          <button
            type="submit"
            className="button is-primary"
            disabled={busy}
            data-testid="preset-save"
          >
            Save preset
          </button>
        </DialogButtons>
      </form>
    </Dialog>
  )
}
