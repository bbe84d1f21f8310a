// The options panel of the playground: the catalogue's operations by plugin and the
// organisation's presets, searched, to add to the chain or to replace the selected item with.
import { CATALOGUE, type OperationSpec } from '@tessera/url'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useConfig } from '../../lib/app-context.tsx'
import { signupUrl } from '../../lib/links.ts'
import { SearchField } from '../form-field.tsx'
import { operationItem, presetItem } from './chain-items.ts'
import type { ChainItem, Preset } from './playground-state.ts'
import type { PlaygroundOrg } from './source-picker.tsx'

export function OptionsPanel({
  tab,
  replacing,
  presets,
  org,
  onTab,
  onPick,
  onTryPreset,
  onClose,
}: {
  tab: 'transformations' | 'presets'
  replacing: boolean
  presets: Preset[]
  org: PlaygroundOrg | undefined
  onTab: (tab: 'transformations' | 'presets') => void
  onPick: (item: ChainItem) => void
  onTryPreset: (preset: Preset) => void
  onClose: () => void
}) {
  const config = useConfig()
  const [query, setQuery] = useState('')
  const search = useRef<HTMLInputElement>(null)
  useEffect(() => search.current?.focus(), [])
  // Each tab starts with an empty search.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the tab changes
  useEffect(() => setQuery(''), [tab])
  const needle = query.trim().toLowerCase()
  const groups = useMemo(
    () =>
      CATALOGUE.plugins
        .map((plugin) => ({
          plugin,
          operations: plugin.operations.filter((operation: OperationSpec) =>
            needle === ''
              ? true
              : `${plugin.name} ${operation.displayName} ${operation.key} ${operation.description}`
                  .toLowerCase()
                  .includes(needle),
          ),
        }))
        .filter((group) => group.operations.length > 0),
    [needle],
  )
  const shownPresets = presets.filter((preset) =>
    `${preset.presetName} ${preset.transformation}`.toLowerCase().includes(needle),
  )
  const verb = replacing ? 'Use' : 'Add'
  return (
    <section
      className="pg-panel pg-options"
      aria-label={replacing ? 'Replace the selected transformation' : 'Transformation options'}
    >
      <div className="pg-panel-head">
        <div className="interval-toggle pg-option-tabs">
          <button
            type="button"
            aria-pressed={tab === 'transformations'}
            onClick={() => onTab('transformations')}
          >
            Operations
          </button>
          <button type="button" aria-pressed={tab === 'presets'} onClick={() => onTab('presets')}>
            Presets
          </button>
        </div>
        <button type="button" className="button is-ghost is-small" onClick={onClose}>
          Close
        </button>
      </div>
      <SearchField
        id="pg-search"
        label={`Search ${tab === 'presets' ? 'presets' : 'operations'}`}
        ref={search}
        className="pg-search search-input"
        placeholder={tab === 'presets' ? 'Search presets' : 'Search operations'}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {tab === 'transformations' ? (
        <div className="pg-groups">
          {groups.length === 0 ? <p className="pg-empty">No operation matches “{query}”.</p> : null}
          {groups.map(({ plugin, operations }) => (
            <section key={plugin.id} aria-labelledby={`pg-plugin-${plugin.id}`}>
              <h3 id={`pg-plugin-${plugin.id}`}>
                {plugin.description} <code>{plugin.id}</code>
              </h3>
              <ul>
                {operations.map((operation) => (
                  <li key={operation.key}>
                    {operation.runnable ? (
                      <button
                        type="button"
                        className="pg-option bare-button"
                        aria-label={`${verb} ${operation.displayName}`}
                        onClick={() => onPick(operationItem(operation))}
                      >
                        <span>{operation.displayName}</span>
                        <small>{operation.description}</small>
                      </button>
                    ) : (
                      <div className="pg-option bare-button is-off" data-testid="not-runnable">
                        <span>
                          {operation.displayName}{' '}
                          <span className="pill pg-pill-off">not on this server</span>
                        </span>
                        <small>{operation.description}</small>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      ) : org === undefined ? (
        <p className="pg-empty">
          Presets are saved chains of an organisation.{' '}
          <a href={signupUrl(config.consoleUrl, window.location)}>Sign up</a> to make and use your
          own.
        </p>
      ) : shownPresets.length === 0 ? (
        <p className="pg-empty">
          {presets.length === 0 ? 'This organisation has no presets yet.' : 'No preset matches.'}
        </p>
      ) : (
        <ul className="pg-presets">
          {shownPresets.map((preset) => (
            <li key={preset.presetName}>
              <span>
                <strong>{preset.presetName}</strong>
                <code>{preset.transformation}</code>
              </span>
              <span className="button-row">
                <button
                  type="button"
                  className="button is-primary is-small"
                  aria-label={`${verb} preset ${preset.presetName}`}
                  onClick={() => onPick(presetItem(preset))}
                >
                  {verb}
                </button>
                {replacing ? null : (
                  <button
                    type="button"
                    className="button is-secondary is-small"
                    aria-label={`Try preset ${preset.presetName}`}
                    onClick={() => onTryPreset(preset)}
                  >
                    Try
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
