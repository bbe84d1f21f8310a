// Presets (/console/organization/{orgId}/presets): the usable ones and, apart, the archived
// ones; create from a chain (or from the playground), edit with variables and their types,
// archive and unarchive, delete. Each shows its `p:name` and an example URL.
import { type FormEvent, useEffect, useState } from 'react'
import {
  CopyButton,
  Dialog,
  ErrorText,
  ListState,
  useConsole,
  useLoad,
} from '../../components/console/console-context.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useConfig } from '../../lib/app-context.tsx'
import { type Preset, type PresetParam, problemOf } from '../../lib/console-api.ts'
import { presetPattern } from '../../lib/console-urls.ts'
import { joinUrl } from '../../lib/runtime-config.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/presets.ts'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Presets', noIndex: true })

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

export default function Presets() {
  const { api, org } = useConsole()
  const config = useConfig()
  const usable = useLoad(
    () => api.listPresets({ archived: false, pageNo: 1, pageSize: 100 }),
    `u:${org._id}`,
  )
  const archived = useLoad(
    () => api.listPresets({ archived: true, pageNo: 1, pageSize: 100 }),
    `a:${org._id}`,
  )
  const [editing, setEditing] = useState<Preset | 'new' | null>(null)
  const [error, setError] = useState<string | null>(null)
  // The playground sends its chain here (`?transformation=…`): the new-preset form opens with it.
  useEffect(() => {
    if (new URLSearchParams(window.location.search).get('transformation')) setEditing('new')
  }, [])
  const reload = async () => {
    await Promise.all([usable.reload(), archived.reload()])
  }
  const exampleUrl = (name: string) =>
    joinUrl(
      config.deliveryUrl || (typeof window === 'undefined' ? '' : window.location.origin),
      `/v2/${org.cloudName ?? '{cloudName}'}/${presetPattern(name)}/{filePath}`,
    )

  const act = async (work: () => Promise<unknown>) => {
    setError(null)
    try {
      await work()
      await reload()
    } catch (reason) {
      setError(problemOf(reason))
    }
  }

  const card = (preset: Preset) => (
    <li
      key={preset.presetName}
      className="card preset-card"
      data-testid="preset"
      data-name={preset.presetName}
    >
      <div className="preset-head">
        <h3>
          <code>p:{preset.presetName}</code>
        </h3>
        {preset.archived ? <span className="pill">Archived</span> : null}
      </div>
      <p className="preset-chain">
        <code>{preset.transformation}</code>
      </p>
      {Object.keys(preset.params).length > 0 ? (
        <p className="preset-vars">
          Variables:{' '}
          {Object.entries(preset.params)
            .map(
              ([name, param]) =>
                `${name} (${param.type}${param.default === undefined ? '' : `, default ${String(param.default)}`})`,
            )
            .join(', ')}
        </p>
      ) : null}
      <p className="preset-example">
        Example: <code data-testid="preset-url">{exampleUrl(preset.presetName)}</code>
      </p>
      <div className="button-row">
        <CopyButton text={exampleUrl(preset.presetName)} label="Copy example URL" />
        {preset.archived ? null : (
          <button
            type="button"
            className="button is-small is-secondary"
            onClick={() => setEditing(preset)}
          >
            Edit
          </button>
        )}
        <button
          type="button"
          className="button is-small is-secondary"
          onClick={() =>
            void act(() => api.updatePreset(preset.presetName, { archived: !preset.archived }))
          }
        >
          {preset.archived ? 'Unarchive' : 'Archive'}
        </button>
        <button
          type="button"
          className="button is-small is-danger"
          onClick={() => {
            if (window.confirm(`Delete p:${preset.presetName}? URLs using it stop working.`)) {
              void act(() => api.deletePreset(preset.presetName))
            }
          }}
        >
          Delete
        </button>
      </div>
    </li>
  )

  return (
    <div className="console-panel is-wide" data-testid="presets-page">
      <div className="page-head">
        <div>
          <p className="eyebrow">Presets</p>
          <h1>Presets</h1>
          <p className="lead">
            A preset names a chain of transformations: use it in URLs as p:name.
          </p>
        </div>
        <div className="button-row">
          <button
            type="button"
            className="button is-primary is-small"
            onClick={() => setEditing('new')}
          >
            New preset
          </button>
          <a
            className="button is-secondary is-small"
            href={`/console/organization/${encodeURIComponent(org._id)}/playground`}
          >
            Make one in the playground
          </a>
        </div>
      </div>
      <ErrorText message={error} />
      <h2>In use</h2>
      <ListState
        state={usable.state}
        label="presets"
        onRetry={() => void usable.reload()}
        empty={(answer) =>
          answer.items.length > 0 ? null : (
            <p>No presets yet. Make one from a chain such as t.resize(w:$w)~t.toFormat(f:webp).</p>
          )
        }
      >
        {(answer) => <ul className="preset-list">{answer.items.map(card)}</ul>}
      </ListState>
      <h2>Archived</h2>
      <ListState
        state={archived.state}
        label="archived presets"
        onRetry={() => void archived.reload()}
        empty={(answer) => (answer.items.length > 0 ? null : <p>Nothing archived.</p>)}
      >
        {(answer) => (
          <ul className="preset-list is-archived" data-testid="archived-presets">
            {answer.items.map(card)}
          </ul>
        )}
      </ListState>
      <PresetDialog
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={async () => {
          setEditing(null)
          await reload()
        }}
      />
    </div>
  )
}

function PresetDialog({
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
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [openedFor, setOpenedFor] = useState<Preset | 'new' | null>(null)
  if (editing !== openedFor) {
    setOpenedFor(editing)
    setError(null)
    setBusy(false)
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
    setBusy(true)
    setError(null)
    try {
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
    } catch (reason) {
      setError(problemOf(reason))
      setBusy(false)
    }
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
        <div className="button-row">
          <button
            type="submit"
            className="button is-primary"
            disabled={busy}
            data-testid="preset-save"
          >
            Save preset
          </button>
          <button type="button" className="button is-ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  )
}

export const ErrorBoundary = RouteErrorBoundary
