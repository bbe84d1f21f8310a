// Presets (/console/organization/{orgId}/presets): the usable ones and, apart, the archived
// ones; create from a chain (or from the playground), edit with variables and their types,
// archive and unarchive, delete. Each shows its `p:name` and an example URL.
import { useEffect, useState } from 'react'
import { useConsole } from '../../components/console/console-context.tsx'
import { ConfirmButton, CopyButton, ErrorText } from '../../components/console/console-ui.tsx'
import { emptyText, ListState, useLoad } from '../../components/console/load-state.tsx'
import { PresetDialog } from '../../components/console/preset-dialog.tsx'
import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { useConfig } from '../../lib/app-context.tsx'
import { type Preset, problemOf } from '../../lib/console-api.ts'
import { presetPattern } from '../../lib/console-urls.ts'
import { joinUrl } from '../../lib/runtime-config.ts'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/presets.ts'

export const meta: Route.MetaFunction = (args) => metaFor(args, { title: 'Presets', noIndex: true })

export default function Presets() {
  const { api, org } = useConsole()
  // A viewer reads presets; changing them takes the member role (the server refuses it too).
  const readOnly = org.role === 'viewer'
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
        {readOnly ? null : (
          <>
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
            <ConfirmButton
              question={`Delete p:${preset.presetName}? URLs using it stop working.`}
              onConfirm={() => act(() => api.deletePreset(preset.presetName))}
            >
              Delete
            </ConfirmButton>
          </>
        )}
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
          {readOnly ? null : (
            <button
              type="button"
              className="button is-primary is-small"
              onClick={() => setEditing('new')}
            >
              New preset
            </button>
          )}
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
        load={usable}
        label="presets"
        empty={(answer) =>
          answer.items.length > 0 ? null : (
            <p>No presets yet. Make one from a chain such as t.resize(w:$w)~t.toFormat(f:webp).</p>
          )
        }
      >
        {(answer) => <ul className="preset-list">{answer.items.map(card)}</ul>}
      </ListState>
      <h2>Archived</h2>
      <ListState load={archived} label="archived presets" empty={emptyText('Nothing archived.')}>
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

export const ErrorBoundary = RouteErrorBoundary
