// The playground's state and its transitions (SPEC §3, §4, §5): the chain of operations and
// presets on one image, the URLs it gives, the 15-operation cap, stash/unstash, clear and the
// editor of the selected operation's values. Pure, so every rule is unit-tested. Chain items and
// reading a shared URL back are in chain-items.ts.
import {
  buildPattern,
  CATALOGUE,
  type Catalogue,
  canAddTransformation,
  checkTransformationLimit,
  PRESET_PLUGIN,
  type PresetVariable,
} from '@tessera/url'

/** The image tabs (SPEC §3). */
export const PLAYGROUND_TABS = ['original', 'transformed', 'result'] as const
export type PlaygroundTab = (typeof PLAYGROUND_TABS)[number]
/** Added to the Transformed tab's label while it shows the chain up to the selected item. */
export const PREVIEW_SUFFIX = '(preview)'
/** The options panel shows operations or presets. */
export type OptionsTab = 'transformations' | 'presets'
/** A preset variable left at its default is written as this value in the editor. */
export const CUSTOM_VALUE = 'custom'

/** A preset the organisation keeps (SPEC §3). */
export interface Preset {
  presetName: string
  transformation: string
  params?: Record<string, PresetVariable> | null
  archived?: boolean
}

/** One entry of the chain (SPEC §3: operation, plugin, values, isPreset, presetName, transformation). */
export interface ChainItem {
  plugin: string
  /** The operation's method, or the preset's name for a preset. */
  method: string
  displayName: string
  /** Values given in the URL; an absent key takes the catalogue's (or preset's) default. */
  values: Record<string, string>
  isPreset: boolean
  presetName?: string
  /** A preset's pattern (its operations joined by `~`), which the cap counts. */
  transformation?: string
}

/** What the image is: delivery base, cloud name and file path (the chain goes between). */
export interface ImageSource {
  baseUrl: string
  cloudName: string
  filePath: string
  /** Query options kept on every URL (`f_auto=true`, `dpr=2`), without the `?`. */
  query: string
  format: string
}

export interface ImageDetails {
  width: number
  height: number
  format: string
  bytes: number
}

/** The operation being edited: the selected item's plugin, operation and values. */
export interface EditedTransformation {
  plugin: string
  operation: string
  values: Record<string, string>
}

export interface PlaygroundState {
  source: ImageSource | null
  originalUrl: string
  originalFormat: string
  transformedUrl: string
  previewUrl: string
  transformationList: ChainItem[]
  selectedTransformIdx: number | null
  prevTransformationList: ChainItem[] | null
  presetData: Preset[]
  disableAddTransformation: boolean
  fromUrl: string | null
  defaultTransformation: EditedTransformation | null
  editDefaultTransformation: EditedTransformation | null
  isPresetsVisible: boolean
  isTransformationVisible: boolean
  playgroundTab: OptionsTab
  originalDetails: ImageDetails | null
  previewDetails: ImageDetails | null
  /** The last refusal (one of the two cap messages of SPEC §5), shown until the next change. */
  error: string | null
}

export const INITIAL_PLAYGROUND: PlaygroundState = {
  source: null,
  originalUrl: '',
  originalFormat: '',
  transformedUrl: '',
  previewUrl: '',
  transformationList: [],
  selectedTransformIdx: null,
  prevTransformationList: null,
  presetData: [],
  disableAddTransformation: false,
  fromUrl: null,
  defaultTransformation: null,
  editDefaultTransformation: null,
  isPresetsVisible: false,
  isTransformationVisible: false,
  playgroundTab: 'transformations',
  originalDetails: null,
  previewDetails: null,
  error: null,
}

export type PlaygroundAction =
  | { type: 'set_source'; source: ImageSource }
  | { type: 'open_url'; url: string; source: ImageSource; items: ChainItem[] }
  | { type: 'add'; item: ChainItem }
  | { type: 'replace'; item: ChainItem }
  | { type: 'delete'; index: number }
  | { type: 'move'; from: number; to: number }
  | { type: 'select'; index: number | null }
  | { type: 'stash' }
  | { type: 'unstash'; presetName?: string }
  | { type: 'keep_stash' }
  | { type: 'clear' }
  | { type: 'set_presets'; presets: Preset[] }
  | { type: 'reset_all' }
  | { type: 'reset_field'; key: string }
  | { type: 'set_field'; key: string; value: string }
  | { type: 'show_options'; tab: OptionsTab }
  | { type: 'hide_options' }
  | { type: 'set_details'; which: 'original' | 'preview'; details: ImageDetails | null }
  | { type: 'dismiss_error' }

/** The chain's pattern, `original` when empty. */
export function chainPattern(items: readonly ChainItem[]): string {
  const pattern = buildPattern(
    items.map((item) => ({
      plugin: item.isPreset ? PRESET_PLUGIN : item.plugin,
      name: item.method,
      values: Object.entries(item.values).map(([key, value]) => ({ key, value })),
    })),
  )
  return pattern === '' ? 'original' : pattern
}

/** The delivery URL of `items` on `source`. */
export function deliveryUrl(source: ImageSource, items: readonly ChainItem[]): string {
  const base = source.baseUrl.replace(/\/+$/, '')
  const query = source.query === '' ? '' : `?${source.query}`
  return `${base}/v2/${source.cloudName}/${chainPattern(items)}/${source.filePath}${query}`
}

/** The URLs follow the list: result = whole chain, preview = chain up to the selected item. */
function withUrls(state: PlaygroundState): PlaygroundState {
  const source = state.source
  if (source === null) return state
  const list = state.transformationList
  const originalUrl = deliveryUrl(source, [])
  if (list.length === 0) {
    // SPEC §4: with no items left, preview and transformed are the original.
    return { ...state, originalUrl, previewUrl: originalUrl, transformedUrl: originalUrl }
  }
  const upTo = state.selectedTransformIdx === null ? list.length : state.selectedTransformIdx + 1
  return {
    ...state,
    originalUrl,
    transformedUrl: deliveryUrl(source, list),
    previewUrl: deliveryUrl(source, list.slice(0, upTo)),
  }
}

function withCap(state: PlaygroundState): PlaygroundState {
  return { ...state, disableAddTransformation: !canAddTransformation(state.transformationList) }
}

/** Whether an item has values to edit: an operation with params, a preset with variables. */
export function hasParams(item: ChainItem, catalogue: Catalogue = CATALOGUE): boolean {
  if (item.isPreset) return Object.keys(presetVariables(item.transformation ?? '')).length > 0
  return (catalogue.getOperation(item.plugin, item.method)?.params.length ?? 0) > 0
}

/** The `$variables` a preset's pattern uses. */
export function presetVariables(transformation: string): Record<string, true> {
  const names: Record<string, true> = {}
  for (const match of transformation.matchAll(/\$([A-Za-z0-9_]+)/g))
    names[match[1] as string] = true
  return names
}

function editedFor(item: ChainItem | undefined): EditedTransformation | null {
  if (item === undefined) return null
  return { plugin: item.plugin, operation: item.method, values: { ...item.values } }
}

function selectIndex(state: PlaygroundState, index: number | null): PlaygroundState {
  const item = index === null ? undefined : state.transformationList[index]
  const edited = editedFor(item)
  return {
    ...state,
    selectedTransformIdx: item === undefined ? null : index,
    defaultTransformation: edited,
    editDefaultTransformation: edited === null ? null : { ...edited, values: { ...edited.values } },
  }
}

/** Writes the edited values into the selected item (the preview follows at once). */
function editSelected(
  state: PlaygroundState,
  values: (current: Record<string, string>) => Record<string, string>,
): PlaygroundState {
  const index = state.selectedTransformIdx
  const edited = state.editDefaultTransformation
  if (index === null || edited === null) return state
  const next = values(edited.values)
  const list = state.transformationList.map((item, at) =>
    at === index ? { ...item, values: next } : item,
  )
  return withUrls({
    ...state,
    transformationList: list,
    editDefaultTransformation: { ...edited, values: next },
  })
}

export function playgroundReducer(
  state: PlaygroundState,
  action: PlaygroundAction,
): PlaygroundState {
  switch (action.type) {
    case 'set_source':
      return withUrls({
        ...state,
        source: action.source,
        originalFormat: action.source.format,
        originalDetails: null,
        previewDetails: null,
      })
    case 'open_url': {
      const opened = withCap(
        withUrls({
          ...INITIAL_PLAYGROUND,
          presetData: state.presetData,
          fromUrl: action.url,
          source: action.source,
          originalFormat: action.source.format,
          transformationList: action.items,
        }),
      )
      return opened
    }
    case 'add': {
      // SPEC §4/§5: at 15 adding is refused, with the preset's own message for a preset.
      const refusal = checkTransformationLimit(state.transformationList, action.item)
      if (refusal !== undefined) return { ...state, error: refusal }
      const list = [...state.transformationList, action.item]
      const next = { ...state, transformationList: list, error: null }
      // Adding selects the new item if it has params, otherwise nothing is selected.
      return withCap(withUrls(selectIndex(next, hasParams(action.item) ? list.length - 1 : null)))
    }
    case 'replace': {
      const index = state.selectedTransformIdx
      if (index === null) return state
      const others = state.transformationList.filter((_, at) => at !== index)
      const refusal = checkTransformationLimit(others, action.item)
      if (refusal !== undefined) return { ...state, error: refusal }
      const list = state.transformationList.map((item, at) => (at === index ? action.item : item))
      const next = { ...state, transformationList: list, error: null }
      // Replacing with a preset clears the selection; an operation stays selected for editing.
      return withCap(withUrls(selectIndex(next, action.item.isPreset ? null : index)))
    }
    case 'delete': {
      if (state.transformationList[action.index] === undefined) return state
      const list = state.transformationList.filter((_, at) => at !== action.index)
      const selected = state.selectedTransformIdx
      const nextSelected =
        selected === null || selected === action.index
          ? null
          : selected > action.index
            ? selected - 1
            : selected
      const next = selectIndex({ ...state, transformationList: list, error: null }, nextSelected)
      return withCap(withUrls(next))
    }
    case 'move': {
      const list = [...state.transformationList]
      const [item] = list.splice(action.from, 1)
      if (item === undefined || action.to < 0 || action.to > list.length) return state
      list.splice(action.to, 0, item)
      return withUrls(selectIndex({ ...state, transformationList: list }, action.to))
    }
    case 'select':
      return withUrls(selectIndex(state, action.index))
    case 'stash':
      return { ...state, prevTransformationList: state.transformationList }
    case 'unstash': {
      const prior = state.prevTransformationList
      if (prior === null) return state
      // Without the named preset: the prior list minus that preset's items.
      const list =
        action.presetName === undefined
          ? prior
          : prior.filter((item) => !(item.isPreset && item.presetName === action.presetName))
      const next = selectIndex(
        { ...state, transformationList: list, prevTransformationList: null, error: null },
        null,
      )
      return withCap(withUrls(next))
    }
    case 'keep_stash':
      return { ...state, prevTransformationList: null }
    case 'clear':
      // Back to the defaults, but the URL the playground was opened with stays, and so does
      // the image and the organisation's presets.
      return withUrls({
        ...INITIAL_PLAYGROUND,
        fromUrl: state.fromUrl,
        source: state.source,
        originalFormat: state.originalFormat,
        originalDetails: state.originalDetails,
        presetData: state.presetData,
      })
    case 'set_presets':
      // SPEC §4: archived presets are not usable.
      return { ...state, presetData: action.presets.filter((preset) => preset.archived !== true) }
    case 'reset_all':
      return editSelected(state, () => ({}))
    case 'reset_field':
      return editSelected(state, (values) => {
        const { [action.key]: _removed, ...rest } = values
        return rest
      })
    case 'set_field':
      return editSelected(state, (values) => ({ ...values, [action.key]: action.value }))
    case 'show_options':
      return {
        ...state,
        playgroundTab: action.tab,
        isTransformationVisible: action.tab === 'transformations',
        isPresetsVisible: action.tab === 'presets',
      }
    case 'hide_options':
      return { ...state, isTransformationVisible: false, isPresetsVisible: false }
    case 'set_details':
      return action.which === 'original'
        ? { ...state, originalDetails: action.details }
        : { ...state, previewDetails: action.details }
    case 'dismiss_error':
      return { ...state, error: null }
  }
}
