// The playground (SPEC §2.8, §3, §4): one image, a chain of operations and presets, and the
// delivery URL it makes. Visitors (`/playground`) work on the demo samples or an image of their
// own; members (`/console/organization/{orgId}/playground`) on their organisation's files and
// presets. Rendered in the browser only; playground-shell.tsx is what the server sends meanwhile.
// The parts are beside it: the state (playground-state.ts), the chain, the options, the parameter
// form, the image tabs, the URL box and the image picker.
import { CATALOGUE } from '@tessera/url'
import { useEffect, useReducer, useState } from 'react'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import {
  DEMO_CLOUD_NAME,
  describeFailure,
  listPresets,
  PLAYGROUND_DEFAULT_SAMPLE,
  signAsMember,
} from '../../lib/playground-api.ts'
import { absoluteUrl } from '../../lib/runtime-config.ts'
import { chainMakesVideo } from '../../lib/video-chain.ts'
import { useCaptcha } from '../captcha.tsx'
import { DefaultSampleImage } from '../playground-shell.tsx'
import { useDeliveryRun } from '../use-delivery-run.ts'
import { useFetchedImage } from '../use-fetched-image.ts'
import { aiRunOf, readRuns, rememberRun } from './ai-run.ts'
import { presetItem, readDeliveryUrl } from './chain-items.ts'
import { ChainPanel } from './chain-list.tsx'
import { AiRunPrompt, ImageTabs } from './image-preview.tsx'
import { OptionsPanel } from './options-panel.tsx'
import { ParamEditor } from './param-editor.tsx'
import {
  type ChainItem,
  chainPattern,
  INITIAL_PLAYGROUND,
  type PlaygroundTab,
  type Preset,
  playgroundReducer,
} from './playground-state.ts'
import { type PlaygroundOrg, SourcePicker, sampleSource } from './source-picker.tsx'
import { UrlBox } from './url-box.tsx'
import './playground.css'
import './playground-panels.css'

export type { PlaygroundOrg }

/** Whether a chain runs an AI (slow) operation, which a visitor's run needs signed. */
function hasAiOperation(items: readonly ChainItem[]): boolean {
  return items.some((item) => CATALOGUE.getOperation(item.plugin, item.method)?.slow === true)
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

  // A video chain costs credits too: it runs signed, as an AI chain does (strict transformations).
  const hasAi =
    hasAiOperation(state.transformationList) ||
    chainMakesVideo(state.source?.format ?? '', state.transformationList)
  const visitorAi = org === undefined && hasAi
  const [limitMessage, setLimitMessage] = useState<string | null>(null)
  const captcha = useCaptcha('playground')

  const shownUrl =
    tab === 'original'
      ? state.originalUrl
      : tab === 'transformed'
        ? state.previewUrl
        : state.transformedUrl
  // An organisation that requires signed URLs has every image signed with its key (the
  // original too); otherwise only AI runs are signed.
  const signsAll = org?.requireSignedUrls === true
  const original = useFetchedImage(
    state.originalUrl === '' ? null : state.originalUrl,
    org === undefined || !signsAll
      ? {}
      : { prepare: (target) => signAsMember(client, config, org.id, target) },
  )
  const isChain = shownUrl !== state.originalUrl
  // An AI step runs (and costs) only when asked; once its part of the chain has run, the steps
  // after it are fetched at once and cost nothing (the server keeps the AI result, ai-run.ts).
  const [runs, setRuns] = useState<string[]>(() => readRuns(window.sessionStorage))
  const shownItems =
    tab === 'original'
      ? []
      : tab === 'transformed' && state.selectedTransformIdx !== null
        ? state.transformationList.slice(0, state.selectedTransformIdx + 1)
        : state.transformationList
  const aiRun = aiRunOf(state.source, shownItems)
  const awaitingRun = isChain && aiRun !== null && !runs.includes(aiRun.url)
  const shown = useDeliveryRun(isChain && !awaitingRun ? shownUrl : null, {
    tags: { where: 'playground' },
    signed: hasAi || signsAll,
    memberOrgId: org?.id,
    captcha,
    limitApplies: visitorAi,
    startTags: () => ({ pattern: chainPattern(state.transformationList) }),
    onDailyLimit: setLimitMessage,
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

        <ChainPanel
          state={state}
          dispatch={dispatch}
          replacing={replacing}
          onShowOptions={(next) => {
            setReplacing(false)
            dispatch({ type: 'show_options', tab: next })
          }}
          onClear={() => {
            dispatch({ type: 'clear' })
            setTab('result')
          }}
        />

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
          <ParamEditor
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
        <ImageTabs
          tab={tab}
          onTab={setTab}
          previewing={selected !== undefined}
          view={view}
          pending={
            awaitingRun && aiRun !== null ? (
              <AiRunPrompt
                run={aiRun}
                visitor={org === undefined}
                onRun={() =>
                  setRuns((current) => rememberRun(current, aiRun.url, window.sessionStorage))
                }
              />
            ) : opensOnDefault ? (
              <DefaultSampleImage />
            ) : null
          }
          limitMessage={limitMessage}
          org={org}
          originalDetails={state.originalDetails}
          previewDetails={state.previewDetails}
        />
        {state.source === null ? null : (
          <UrlBox url={state.transformedUrl} org={org} pagePath={window.location.pathname} />
        )}
      </div>
    </div>
  )
}
