// The playground (SPEC §2.8, §3, §4): one image, a chain of operations and presets, and the
// delivery URL it makes. Visitors (`/playground`) work on the demo samples or an image of their
// own; members (`/console/organization/{orgId}/playground`) on their organisation's files and
// presets. Rendered in the browser only; playground-shell.tsx is what the server sends meanwhile.
import { CATALOGUE, formatBytes, type OperationSpec } from '@tessera/url'
import {
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react'
import { useConfig, useSession } from '../lib/app-context.tsx'
import { APP_EVENTS, trackAppEvent } from '../lib/app-events.ts'
import { signupUrl } from '../lib/links.ts'
import {
  DAILY_LIMIT_CODE,
  DEMO_CLOUD_NAME,
  describeFailure,
  getTransformationContext,
  listFiles,
  listPresets,
  type MemberFile,
  PLAYGROUND_DEFAULT_SAMPLE,
  SAMPLE_FILES,
  sampleThumbnailUrl,
  signAsMember,
  signAsVisitor,
  uploadAsMember,
  uploadAsVisitor,
} from '../lib/playground-api.ts'
import {
  type ChainItem,
  chainCount,
  chainPattern,
  type ImageDetails,
  type ImageSource,
  INITIAL_PLAYGROUND,
  MAX_TRANSFORMATIONS,
  operationItem,
  PLAYGROUND_TABS,
  type PlaygroundTab,
  PREVIEW_SUFFIX,
  type Preset,
  playgroundReducer,
  presetItem,
  readDeliveryUrl,
} from '../lib/playground-state.ts'
import { absoluteUrl, joinUrl } from '../lib/runtime-config.ts'
import { type SnippetKind, snippet } from '../lib/url-snippets.ts'
import { type Captcha, useCaptcha } from './captcha.tsx'
import { type FileChoice, ParamControl, variableSpec } from './param-control.tsx'
import { DefaultSampleImage } from './playground-shell.tsx'
import { useFetchedImage } from './use-fetched-image.ts'
import './playground.css'

export interface PlaygroundOrg {
  id: string
  cloudName: string
  name?: string
}

const TAB_LABELS: Record<PlaygroundTab, string> = {
  original: 'Original',
  transformed: 'Transformed',
  result: 'Result',
}

/** Whether a chain runs an AI (slow) operation, which a visitor's run needs signed. */
function hasAiOperation(items: readonly ChainItem[]): boolean {
  return items.some((item) => CATALOGUE.getOperation(item.plugin, item.method)?.slow === true)
}

function sampleSource(deliveryBase: string, file: string): ImageSource {
  return {
    baseUrl: deliveryBase,
    cloudName: DEMO_CLOUD_NAME,
    filePath: `samples/${file}`,
    query: '',
    format: file.endsWith('.jpg') ? 'jpeg' : 'png',
  }
}

export function Playground({ org }: { org?: PlaygroundOrg }) {
  const config = useConfig()
  const { client } = useSession()
  const [state, dispatch] = useReducer(playgroundReducer, INITIAL_PLAYGROUND)
  const [tab, setTab] = useState<PlaygroundTab>('result')
  const [replacing, setReplacing] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const deliveryBase = absoluteUrl(config.deliveryUrl, window.location.origin).replace(/\/$/, '')
  const [opened, setOpened] = useState(false)

  // Presets (members), then the image: the shared `?url=`, or the first sample for visitors.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per organisation
  useEffect(() => {
    let live = true
    const open = (presets: Preset[]) => {
      if (!live) return
      dispatch({ type: 'set_presets', presets })
      const shared = new URLSearchParams(window.location.search).get('url')
      const read = shared === null ? null : readDeliveryUrl(shared, presets)
      if (read !== null && shared !== null) {
        dispatch({ type: 'open_url', url: shared, source: read.source, items: read.items })
      } else {
        if (shared !== null) setNotice('The ?url= parameter is not a delivery URL; it was ignored.')
        if (org === undefined) {
          dispatch({
            type: 'set_source',
            source: sampleSource(deliveryBase, PLAYGROUND_DEFAULT_SAMPLE),
          })
        }
      }
      setOpened(true)
    }
    if (org === undefined) open([])
    else
      listPresets(client, config, org.id).then(open, (error: unknown) => {
        setNotice(`Presets could not be loaded: ${describeFailure(error).message}`)
        open([])
      })
    return () => {
      live = false
    }
  }, [org?.id])

  // The address bar carries the chain, so the page can be shared and reloaded as it is.
  useEffect(() => {
    if (!opened || state.source === null) return
    const next = new URL(window.location.href)
    next.searchParams.set('url', state.transformedUrl)
    if (next.href !== window.location.href)
      window.history.replaceState(window.history.state, '', next)
  }, [opened, state.transformedUrl, state.source])

  const hasAi = hasAiOperation(state.transformationList)
  const visitorAi = org === undefined && hasAi
  const [limitMessage, setLimitMessage] = useState<string | null>(null)
  const captcha = useCaptcha('playground')
  const prepare = useCallback(
    async (url: string) => {
      if (!hasAi) return url
      // A member's organisation may have strict transformations on: its own key signs the run.
      if (org !== undefined) return signAsMember(client, config, org.id, url)
      try {
        return (await signAsVisitor(config, url, await captcha.token())).url
      } catch (error) {
        const failure = describeFailure(error)
        // A server without visitor signing (404): the plain demo URL is used.
        if (failure.status === 404) return url
        if (failure.code === DAILY_LIMIT_CODE) {
          trackAppEvent(APP_EVENTS.dailyLimitExceeded, { where: 'playground' })
          setLimitMessage(failure.message)
        }
        if (failure.code.startsWith('captcha')) {
          trackAppEvent(APP_EVENTS.captchaFailed, { where: 'playground' })
        }
        throw error
      }
    },
    [hasAi, org, client, config, captcha.token],
  )

  const shownUrl =
    tab === 'original'
      ? state.originalUrl
      : tab === 'transformed'
        ? state.previewUrl
        : state.transformedUrl
  const original = useFetchedImage(state.originalUrl === '' ? null : state.originalUrl)
  const isChain = shownUrl !== state.originalUrl
  const shown = useFetchedImage(isChain ? shownUrl : null, {
    prepare,
    onStart: () =>
      trackAppEvent(APP_EVENTS.transformationTriggered, {
        where: 'playground',
        pattern: chainPattern(state.transformationList),
      }),
    onReady: (ready) => {
      trackAppEvent(APP_EVENTS.success, { where: 'playground' })
      if (ready.retries > 0) trackAppEvent(APP_EVENTS.pollingSucceeded, { retries: ready.retries })
    },
    onFailed: (failure) => {
      trackAppEvent(APP_EVENTS.failed, { where: 'playground', status: failure.status_code })
      if (failure.wasProcessing) trackAppEvent(APP_EVENTS.pollingFailed, { code: failure.code })
      // Delivery refuses a visitor's new AI render past the daily allowance.
      if (failure.code === DAILY_LIMIT_CODE && visitorAi) {
        trackAppEvent(APP_EVENTS.dailyLimitExceeded, { where: 'playground' })
        setLimitMessage(failure.message)
      }
    },
  })
  const view = isChain ? shown : original
  // A visitor's playground opening on the default sample shows what the server's shell showed
  // until the original is fetched (before it is chosen, too, unless a `?url=` brings another).
  const opensOnDefault =
    org === undefined &&
    !isChain &&
    (state.source === null
      ? !opened && !new URLSearchParams(window.location.search).has('url')
      : state.source.cloudName === DEMO_CLOUD_NAME &&
        state.source.filePath === `samples/${PLAYGROUND_DEFAULT_SAMPLE}`)

  useEffect(() => {
    dispatch({
      type: 'set_details',
      which: 'original',
      details: original.state.status === 'ready' ? original.state.details : null,
    })
  }, [original.state])
  useEffect(() => {
    const details = isChain
      ? shown.state.status === 'ready'
        ? shown.state.details
        : null
      : original.state.status === 'ready'
        ? original.state.details
        : null
    dispatch({ type: 'set_details', which: 'preview', details })
  }, [shown.state, original.state, isChain])

  const selected =
    state.selectedTransformIdx === null
      ? undefined
      : state.transformationList[state.selectedTransformIdx]
  const count = chainCount(state.transformationList)
  const optionsOpen = state.isTransformationVisible || state.isPresetsVisible

  // Adding keeps the options open to add more; a replacement closes them.
  const pick = (item: ChainItem) => {
    dispatch(replacing ? { type: 'replace', item } : { type: 'add', item })
    if (replacing) {
      setReplacing(false)
      dispatch({ type: 'hide_options' })
    }
  }

  return (
    <div className="pg" data-testid="playground">
      <div className="pg-side">
        <SourcePicker
          org={org}
          source={state.source}
          deliveryBase={deliveryBase}
          captcha={captcha}
          onSource={(source) => dispatch({ type: 'set_source', source })}
        />

        <section className="pg-panel" aria-labelledby="pg-chain-heading">
          <div className="pg-panel-head">
            <h2 id="pg-chain-heading">Transformations</h2>
            <span className="pg-count" data-testid="operation-count">
              {count} of {MAX_TRANSFORMATIONS} operations
            </span>
          </div>
          {state.transformationList.length === 0 ? (
            <p className="pg-empty">No transformations yet: the result is the original image.</p>
          ) : null}
          <ol className="pg-chain" aria-labelledby="pg-chain-heading">
            {state.transformationList.map((item, index) => (
              <ChainRow
                // biome-ignore lint/suspicious/noArrayIndexKey: the same operation may appear twice
                key={`${index}-${item.plugin}.${item.method}`}
                item={item}
                index={index}
                last={state.transformationList.length - 1}
                selected={state.selectedTransformIdx === index}
                onSelect={() =>
                  dispatch({
                    type: 'select',
                    index: state.selectedTransformIdx === index ? null : index,
                  })
                }
                onDelete={() => dispatch({ type: 'delete', index })}
                onMove={(to) => dispatch({ type: 'move', from: index, to })}
              />
            ))}
          </ol>
          {state.error === null ? null : (
            <div className="pg-alert" role="alert">
              <span>{state.error}</span>
              <button
                type="button"
                className="button is-ghost is-small"
                onClick={() => dispatch({ type: 'dismiss_error' })}
              >
                Dismiss
              </button>
            </div>
          )}
          {state.prevTransformationList === null ? null : (
            <div className="pg-stash" role="status">
              <span>Trying a preset: keep it, or go back to the chain you had.</span>
              <button
                type="button"
                className="button is-primary is-small"
                onClick={() => dispatch({ type: 'keep_stash' })}
              >
                Keep
              </button>
              <button
                type="button"
                className="button is-secondary is-small"
                onClick={() => {
                  const tried = state.transformationList.at(-1)
                  dispatch(
                    tried?.isPreset === true && tried.presetName !== undefined
                      ? { type: 'unstash', presetName: tried.presetName }
                      : { type: 'unstash' },
                  )
                }}
              >
                Go back
              </button>
            </div>
          )}
          <div className="button-row pg-chain-actions">
            <button
              type="button"
              className="button is-primary is-small"
              disabled={state.disableAddTransformation}
              aria-expanded={optionsOpen && !replacing}
              onClick={() => {
                setReplacing(false)
                dispatch({ type: 'show_options', tab: 'transformations' })
              }}
            >
              Add transformation
            </button>
            <button
              type="button"
              className="button is-secondary is-small"
              onClick={() => {
                setReplacing(false)
                dispatch({ type: 'show_options', tab: 'presets' })
              }}
              disabled={state.disableAddTransformation}
            >
              Add preset
            </button>
            <button
              type="button"
              className="button is-ghost is-small"
              onClick={() => {
                dispatch({ type: 'clear' })
                setTab('result')
              }}
              disabled={state.transformationList.length === 0}
            >
              Clear
            </button>
          </div>
          {state.disableAddTransformation ? (
            <p className="pg-note">
              The chain holds {MAX_TRANSFORMATIONS} operations, the most a URL may have: remove one
              to add another.
            </p>
          ) : null}
        </section>

        {optionsOpen ? (
          <OptionsPanel
            tab={state.playgroundTab}
            replacing={replacing}
            presets={state.presetData}
            org={org}
            onTab={(next) => dispatch({ type: 'show_options', tab: next })}
            onPick={pick}
            onTryPreset={(preset) => {
              dispatch({ type: 'stash' })
              dispatch({ type: 'add', item: presetItem(preset) })
              dispatch({ type: 'hide_options' })
            }}
            onClose={() => {
              setReplacing(false)
              dispatch({ type: 'hide_options' })
            }}
          />
        ) : null}

        {selected === undefined ? null : (
          <Editor
            item={selected}
            values={state.editDefaultTransformation?.values ?? {}}
            presets={state.presetData}
            org={org}
            onSet={(key, value) =>
              dispatch(
                value === '' ? { type: 'reset_field', key } : { type: 'set_field', key, value },
              )
            }
            onReset={(key) => dispatch({ type: 'reset_field', key })}
            onResetAll={() => dispatch({ type: 'reset_all' })}
            onReplace={() => {
              setReplacing(true)
              dispatch({ type: 'show_options', tab: 'transformations' })
            }}
            onDone={() => dispatch({ type: 'select', index: null })}
          />
        )}
      </div>

      <div className="pg-main">
        {notice === null ? null : (
          <p className="pg-note" role="status">
            {notice}
          </p>
        )}
        <div role="tablist" aria-label="Image" className="interval-toggle pg-tabs">
          {PLAYGROUND_TABS.map((name) => (
            <button
              key={name}
              id={`pg-tab-${name}`}
              type="button"
              role="tab"
              aria-selected={tab === name}
              aria-controls="pg-image-panel"
              onClick={() => setTab(name)}
            >
              {TAB_LABELS[name]}
              {name === 'transformed' && selected !== undefined ? ` ${PREVIEW_SUFFIX}` : ''}
            </button>
          ))}
        </div>
        <div
          id="pg-image-panel"
          role="tabpanel"
          aria-labelledby={`pg-tab-${tab}`}
          className="pg-stage"
          data-testid="image-panel"
        >
          <ImageStage
            view={view}
            pending={opensOnDefault ? <DefaultSampleImage /> : null}
            alt={`${TAB_LABELS[tab]} image`}
            limitMessage={limitMessage}
            org={org}
          />
        </div>
        <div className="pg-details">
          <Details title="Original" details={state.originalDetails} testId="original-details" />
          <Details title={TAB_LABELS[tab]} details={state.previewDetails} testId="result-details" />
        </div>
        {state.source === null ? null : (
          <UrlBox url={state.transformedUrl} org={org} pagePath={window.location.pathname} />
        )}
      </div>
    </div>
  )
}

function ChainRow({
  item,
  index,
  last,
  selected,
  onSelect,
  onDelete,
  onMove,
}: {
  item: ChainItem
  index: number
  last: number
  selected: boolean
  onSelect: () => void
  onDelete: () => void
  onMove: (to: number) => void
}) {
  const spec = item.isPreset ? undefined : CATALOGUE.getOperation(item.plugin, item.method)
  const text = chainPattern([item])
  return (
    <li className={selected ? 'pg-item is-selected' : 'pg-item'}>
      <button type="button" className="pg-item-main" aria-pressed={selected} onClick={onSelect}>
        <span className="pg-item-name">
          {item.isPreset ? `Preset: ${item.displayName}` : item.displayName}
          {spec !== undefined && !spec.runnable ? (
            <span className="pill pg-pill-off">not on this server</span>
          ) : null}
        </span>
        <code>{text}</code>
      </button>
      <span className="pg-item-tools">
        <button
          type="button"
          aria-label={`Move ${item.displayName} up`}
          disabled={index === 0}
          onClick={() => onMove(index - 1)}
        >
          ↑
        </button>
        <button
          type="button"
          aria-label={`Move ${item.displayName} down`}
          disabled={index === last}
          onClick={() => onMove(index + 1)}
        >
          ↓
        </button>
        <button type="button" aria-label={`Remove ${item.displayName}`} onClick={onDelete}>
          ×
        </button>
      </span>
    </li>
  )
}

function OptionsPanel({
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
      <label className="visually-hidden" htmlFor="pg-search">
        Search {tab === 'presets' ? 'presets' : 'operations'}
      </label>
      <input
        id="pg-search"
        ref={search}
        type="search"
        className="pg-search"
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
                        className="pg-option"
                        aria-label={`${verb} ${operation.displayName}`}
                        onClick={() => onPick(operationItem(operation))}
                      >
                        <span>{operation.displayName}</span>
                        <small>{operation.description}</small>
                      </button>
                    ) : (
                      <div className="pg-option is-off" data-testid="not-runnable">
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

function Editor({
  item,
  values,
  presets,
  org,
  onSet,
  onReset,
  onResetAll,
  onReplace,
  onDone,
}: {
  item: ChainItem
  values: Record<string, string>
  presets: Preset[]
  org: PlaygroundOrg | undefined
  onSet: (key: string, value: string) => void
  onReset: (key: string) => void
  onResetAll: () => void
  onReplace: () => void
  onDone: () => void
}) {
  const config = useConfig()
  const { client } = useSession()
  const [files, setFiles] = useState<FileChoice[]>([])
  const specs = useMemo(() => {
    if (!item.isPreset) return CATALOGUE.getOperation(item.plugin, item.method)?.params ?? []
    const preset = presets.find((candidate) => candidate.presetName === item.presetName)
    return Object.entries(preset?.params ?? {}).map(([name, variable]) =>
      variableSpec(name, variable),
    )
  }, [item, presets])
  const needsFiles = specs.some((spec) => spec.type === 'file')
  useEffect(() => {
    if (!needsFiles || org === undefined) return
    let live = true
    listFiles(client, config, org.id, '')
      .then(async (top) => {
        // The top level and one level down: enough to pick an overlay from.
        const folders = top.items.filter((entry) => entry.type === 'folder').slice(0, 5)
        const nested = await Promise.all(
          folders.map((folder) =>
            listFiles(client, config, org.id, folder.fullPath).catch(() => ({ items: [] })),
          ),
        )
        const all = [top.items, ...nested.map((answer) => answer.items)].flat()
        if (live) setFiles(fileChoices(all))
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [needsFiles, org, client, config])

  return (
    <section className="pg-panel" aria-labelledby="pg-editor-heading">
      <div className="pg-panel-head">
        <h2 id="pg-editor-heading">Edit {item.displayName}</h2>
        <button type="button" className="button is-ghost is-small" onClick={onDone}>
          Done
        </button>
      </div>
      {specs.length === 0 ? <p className="pg-empty">This step has nothing to set.</p> : null}
      <div className="pg-params">
        {specs.map((spec) => (
          <ParamControl
            key={spec.id}
            spec={spec}
            value={values[spec.id]}
            onChange={(value) => onSet(spec.id, value)}
            onReset={() => onReset(spec.id)}
            files={files}
            filesNote={
              org === undefined
                ? 'visitors give a file id; members pick from their organisation'
                : 'no files found'
            }
          />
        ))}
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button is-secondary is-small"
          onClick={onResetAll}
          disabled={Object.keys(values).length === 0}
        >
          Reset all
        </button>
        <button type="button" className="button is-secondary is-small" onClick={onReplace}>
          Replace
        </button>
      </div>
    </section>
  )
}

function fileChoices(entries: MemberFile[]): FileChoice[] {
  return entries
    .filter((entry) => entry.type !== 'folder' && entry.fileId !== undefined)
    .map((entry) => ({ value: entry.fileId as string, label: entry.fullPath }))
}

type ImageView = ReturnType<typeof useFetchedImage>

function ImageStage({
  view,
  pending,
  alt,
  limitMessage,
  org,
}: {
  view: ImageView
  /** Shown while there is no image yet or it loads (the visitor's first sample), if not null. */
  pending: ReactNode
  alt: string
  limitMessage: string | null
  org: PlaygroundOrg | undefined
}) {
  const config = useConfig()
  const { state } = view
  switch (state.status) {
    case 'idle':
      if (pending !== null) return pending
      return <p className="pg-empty">Choose an image to start.</p>
    case 'loading':
      if (pending !== null) return pending
      return (
        <p className="pg-wait" role="status">
          Loading the image…
        </p>
      )
    case 'processing':
      return (
        <div className="pg-wait" role="status" data-testid="processing">
          <p>
            Processing: the server is still working on this image (check {state.attempt} of 12).
          </p>
          <button type="button" className="button is-secondary is-small" onClick={view.cancel}>
            Cancel
          </button>
        </div>
      )
    case 'cancelled':
      return (
        <div className="pg-wait" role="status">
          <p>Cancelled.</p>
          <button type="button" className="button is-secondary is-small" onClick={view.retry}>
            Try again
          </button>
        </div>
      )
    case 'failed':
      return (
        <div className="pg-alert" role="alert" data-testid="image-error">
          <p>
            {state.status_code === 402 ? (
              <>
                The organisation has no credits left for AI operations.{' '}
                {org === undefined ? null : (
                  <a
                    href={joinUrl(config.consoleUrl, `/organization/${org.id}/billing`)}
                    onClick={() =>
                      trackAppEvent(APP_EVENTS.paymentTriggered, { where: 'playground' })
                    }
                  >
                    Top up credits
                  </a>
                )}
              </>
            ) : state.code === DAILY_LIMIT_CODE ? (
              <span data-testid="daily-limit">
                {limitMessage ?? state.message}{' '}
                <a
                  href={signupUrl(config.consoleUrl, window.location)}
                  onClick={() => trackAppEvent(APP_EVENTS.signupTriggered, { where: 'playground' })}
                >
                  Sign up
                </a>{' '}
                to keep going with your own credits.
              </span>
            ) : (
              <>
                The image could not be made: {state.message}
                {state.status_code === 0 ? '' : ` (HTTP ${state.status_code})`}
              </>
            )}
          </p>
          <button type="button" className="button is-secondary is-small" onClick={view.retry}>
            Try again
          </button>
        </div>
      )
    case 'ready':
      return (
        <img
          className="pg-image"
          src={state.src}
          alt={alt}
          width={state.details.width || undefined}
          height={state.details.height || undefined}
          data-url={state.url}
        />
      )
  }
}

function Details({
  title,
  details,
  testId,
}: {
  title: string
  details: ImageDetails | null
  testId: string
}) {
  return (
    <dl className="pg-detail" data-testid={testId}>
      <dt>{title}</dt>
      <dd>
        {details === null
          ? '—'
          : `${details.width} × ${details.height} px · ${details.format} · ${formatBytes(details.bytes)}`}
      </dd>
    </dl>
  )
}

function UrlBox({
  url,
  org,
  pagePath,
}: {
  url: string
  org: PlaygroundOrg | undefined
  pagePath: string
}) {
  const config = useConfig()
  const { client } = useSession()
  const [kind, setKind] = useState<SnippetKind>('url')
  const [copied, setCopied] = useState<string | null>(null)
  const [context, setContext] = useState<{ ok: boolean; text: string } | null>(null)
  const text = snippet(kind, url)
  const share = `${window.location.origin}${pagePath}?url=${encodeURIComponent(url)}`
  const copy = async (value: string, what: string) => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(`${what} copied`)
    } catch {
      setCopied('Copying is blocked here: select the text and copy it.')
    }
  }
  return (
    <section className="pg-panel pg-url" aria-labelledby="pg-url-heading">
      <div className="pg-panel-head">
        <h2 id="pg-url-heading">Delivery URL</h2>
        <div className="interval-toggle pg-option-tabs">
          {(['url', 'curl', 'code'] as const).map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={kind === name}
              onClick={() => setKind(name)}
            >
              {name === 'url' ? 'URL' : name === 'curl' ? 'cURL' : '@tessera/url'}
            </button>
          ))}
        </div>
      </div>
      <pre className="code-block" data-testid="url-snippet">
        <code>{text}</code>
      </pre>
      <div className="button-row">
        <button
          type="button"
          className="button is-primary is-small"
          onClick={() => copy(text, kind === 'url' ? 'URL' : kind === 'curl' ? 'cURL' : 'Code')}
        >
          Copy
        </button>
        <button
          type="button"
          className="button is-secondary is-small"
          onClick={() => copy(share, 'Link')}
        >
          Copy share link
        </button>
        {org === undefined ? null : (
          <button
            type="button"
            className="button is-secondary is-small"
            onClick={async () => {
              try {
                const answer = await getTransformationContext(client, config, url)
                setContext({ ok: true, text: JSON.stringify(answer, null, 2) })
              } catch (error) {
                const failure = describeFailure(error)
                setContext({
                  ok: false,
                  text: `The context call answered ${failure.status}: ${failure.message}`,
                })
              }
            }}
          >
            Context
          </button>
        )}
        <span role="status" className="pg-copied">
          {copied}
        </span>
      </div>
      {context === null ? null : context.ok ? (
        <pre className="code-block" data-testid="context">
          <code>{context.text}</code>
        </pre>
      ) : (
        <p className="pg-alert" role="alert" data-testid="context">
          {context.text}
        </p>
      )}
    </section>
  )
}

function SourcePicker({
  org,
  source,
  deliveryBase,
  captcha,
  onSource,
}: {
  org: PlaygroundOrg | undefined
  source: ImageSource | null
  deliveryBase: string
  captcha: Captcha
  onSource: (source: ImageSource) => void
}) {
  const config = useConfig()
  const { client } = useSession()
  const [upload, setUpload] = useState<
    | { status: 'idle' }
    | { status: 'uploading'; progress: number }
    | { status: 'failed'; message: string }
    | { status: 'done'; message: string }
  >({ status: 'idle' })
  const [folder, setFolder] = useState('')
  const [entries, setEntries] = useState<MemberFile[] | null>(null)
  const [listError, setListError] = useState<string | null>(null)

  useEffect(() => {
    if (org === undefined) return
    let live = true
    setEntries(null)
    listFiles(client, config, org.id, folder).then(
      (answer) => live && setEntries(answer.items),
      (error: unknown) => live && setListError(describeFailure(error).message),
    )
    return () => {
      live = false
    }
  }, [org, folder, client, config])

  const onFile = async (file: File) => {
    trackAppEvent(APP_EVENTS.fileUpload, { where: 'playground', size: file.size })
    setUpload({ status: 'uploading', progress: 0 })
    const onProgress = (fraction: number) =>
      setUpload({ status: 'uploading', progress: Math.round(fraction * 100) })
    try {
      if (org === undefined) {
        const captchaToken = await captcha.token()
        const answer = await uploadAsVisitor(config, file, {
          onProgress,
          ...(captchaToken === undefined ? {} : { captchaToken }),
        })
        const read = readDeliveryUrl(answer.file.url, [])
        if (read !== null) onSource(read.source)
        setUpload({
          status: 'done',
          message: `Uploaded; kept until ${new Date(answer.expiresAt).toLocaleString()}. ${answer.remaining.uploads} uploads left today.`,
        })
      } else {
        const answer = await uploadAsMember(config, org.id, file, { onProgress })
        const read = readDeliveryUrl(answer.url, [])
        if (read !== null) onSource(read.source)
        setUpload({ status: 'done', message: `Uploaded to ${answer.fullPath}.` })
        setFolder(answer.path)
      }
      trackAppEvent(APP_EVENTS.uploadSuccess, { where: 'playground' })
    } catch (error) {
      const failure = describeFailure(error)
      trackAppEvent(APP_EVENTS.uploadFailed, { where: 'playground', code: failure.code })
      if (failure.code === DAILY_LIMIT_CODE) {
        trackAppEvent(APP_EVENTS.dailyLimitExceeded, { where: 'playground' })
      }
      if (failure.code.startsWith('captcha')) {
        trackAppEvent(APP_EVENTS.captchaFailed, { where: 'playground' })
      }
      setUpload({
        status: 'failed',
        message:
          org === undefined && failure.status === 404
            ? 'Uploading your own image is not available on this server. Try a sample, or sign up to use your own files.'
            : failure.message,
      })
    }
  }

  return (
    <section className="pg-panel" aria-labelledby="pg-source-heading">
      <h2 id="pg-source-heading">Image</h2>
      {org === undefined ? (
        <ul className="pg-samples" aria-label="Samples">
          {SAMPLE_FILES.map((file) => {
            const current =
              source?.cloudName === DEMO_CLOUD_NAME && source.filePath === `samples/${file}`
            return (
              <li key={file}>
                <button
                  type="button"
                  aria-pressed={current}
                  aria-label={`Sample ${file}`}
                  onClick={() => onSource(sampleSource(deliveryBase, file))}
                >
                  <img src={sampleThumbnailUrl(config, file, 48)} alt="" width={48} height={48} />
                </button>
              </li>
            )
          })}
        </ul>
      ) : (
        <div className="pg-files">
          <p className="pg-note">
            {org.name ?? org.cloudName} · {folder === '' ? 'top level' : folder}
            {folder === '' ? null : (
              <>
                {' '}
                <button
                  type="button"
                  className="button is-ghost is-small"
                  onClick={() => setFolder(folder.split('/').slice(0, -1).join('/'))}
                >
                  Up a folder
                </button>
              </>
            )}
          </p>
          {listError !== null ? (
            <p className="pg-alert" role="alert">
              {listError}
            </p>
          ) : entries === null ? (
            <p className="pg-wait">Loading files…</p>
          ) : entries.length === 0 ? (
            <p className="pg-empty">No files here yet: upload one.</p>
          ) : (
            <ul className="pg-file-list" aria-label="Files">
              {entries.map((entry) => (
                <li key={entry.fullPath}>
                  {entry.type === 'folder' ? (
                    <button type="button" onClick={() => setFolder(entry.fullPath)}>
                      📁 {entry.name}
                    </button>
                  ) : (
                    <button
                      type="button"
                      aria-pressed={source?.filePath === entry.fullPath}
                      onClick={() => {
                        const read = readDeliveryUrl(entry.url, [])
                        if (read !== null) onSource(read.source)
                      }}
                    >
                      {entry.name}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <label className="pg-upload">
        <span className="button is-secondary is-small">Upload an image</span>
        <input
          type="file"
          accept="image/*"
          className="visually-hidden"
          onChange={(event) => {
            const file = event.target.files?.[0]
            event.target.value = ''
            if (file !== undefined) void onFile(file)
          }}
        />
      </label>
      {upload.status === 'uploading' ? (
        <progress max={100} value={upload.progress} aria-label="Upload progress">
          {upload.progress}%
        </progress>
      ) : upload.status === 'failed' ? (
        <p className="pg-alert" role="alert" data-testid="upload-error">
          {upload.message}
        </p>
      ) : upload.status === 'done' ? (
        <p className="pg-note" role="status">
          {upload.message}
        </p>
      ) : null}
      {org === undefined ? captcha.widget : null}
    </section>
  )
}
