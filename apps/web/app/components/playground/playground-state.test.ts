import { CATALOGUE } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import { chainCount, operationItem, presetItem, readDeliveryUrl } from './chain-items.ts'
import {
  type ChainItem,
  deliveryUrl,
  type ImageSource,
  INITIAL_PLAYGROUND,
  type PlaygroundAction,
  type PlaygroundState,
  playgroundReducer,
} from './playground-state.ts'

const SOURCE: ImageSource = {
  baseUrl: 'http://localhost:4201',
  cloudName: 'demo',
  filePath: 'samples/astronaut.png',
  query: '',
  format: 'png',
}
const ORIGINAL = 'http://localhost:4201/v2/demo/original/samples/astronaut.png'

const op = (plugin: string, method: string): ChainItem => {
  const spec = CATALOGUE.getOperation(plugin, method)
  if (spec === undefined) throw new Error(`${plugin}.${method} missing`)
  return operationItem(spec)
}
const FLIP = op('t', 'flip') // no params
const RESIZE = op('t', 'resize') // params
const preset = (name: string, operations: number): ChainItem =>
  presetItem({
    presetName: name,
    transformation: Array.from({ length: operations }, () => 't.flip()').join('~'),
  })

const run = (actions: PlaygroundAction[], from: PlaygroundState = INITIAL_PLAYGROUND) =>
  actions.reduce(playgroundReducer, from)
const start = run([{ type: 'set_source', source: SOURCE }])
const filled = (count: number) =>
  run(
    Array.from({ length: count }, () => ({ type: 'add', item: FLIP }) as const),
    start,
  )

describe('the playground chain (SPEC §4)', () => {
  it('starts with every URL on the original', () => {
    expect(start.originalUrl).toBe(ORIGINAL)
    expect(start.previewUrl).toBe(ORIGINAL)
    expect(start.transformedUrl).toBe(ORIGINAL)
    expect(start.playgroundTab).toBe('transformations')
  })

  it('adding selects the new item when it has params, otherwise nothing', () => {
    const withResize = run([{ type: 'add', item: RESIZE }], start)
    expect(withResize.selectedTransformIdx).toBe(0)
    expect(withResize.editDefaultTransformation).toEqual({
      plugin: 't',
      operation: 'resize',
      values: {},
    })
    const thenFlip = run([{ type: 'add', item: FLIP }], withResize)
    expect(thenFlip.selectedTransformIdx).toBeNull()
    expect(thenFlip.editDefaultTransformation).toBeNull()
    expect(thenFlip.transformedUrl).toBe(
      'http://localhost:4201/v2/demo/t.resize()~t.flip()/samples/astronaut.png',
    )
  })

  it('a preset with variables is selected on add, one without is not', () => {
    const plain = run([{ type: 'add', item: preset('thumb', 2) }], start)
    expect(plain.selectedTransformIdx).toBeNull()
    const withVar = presetItem({ presetName: 'card', transformation: 't.resize(w:$w)' })
    expect(run([{ type: 'add', item: withVar }], start).selectedTransformIdx).toBe(0)
    expect(plain.transformedUrl).toContain('/p:thumb/')
  })

  it('disables adding at 15 and refuses a 16th with the SPEC §5 message', () => {
    const fourteen = filled(14)
    expect(fourteen.disableAddTransformation).toBe(false)
    const fifteen = run([{ type: 'add', item: FLIP }], fourteen)
    expect(chainCount(fifteen.transformationList)).toBe(15)
    expect(fifteen.disableAddTransformation).toBe(true)
    const refused = run([{ type: 'add', item: FLIP }], fifteen)
    expect(refused.transformationList).toHaveLength(15)
    expect(refused.error).toBe('Cannot add more than 15 transformations.')
  })

  it('counts a preset per operation and refuses one that would pass 15', () => {
    const twelve = filled(12)
    const refused = run([{ type: 'add', item: preset('four', 4) }], twelve)
    expect(refused.error).toBe('Cannot add preset, causing more than 15 transformations.')
    expect(refused.transformationList).toHaveLength(12)
    const fits = run([{ type: 'add', item: preset('three', 3) }], twelve)
    expect(fits.transformationList).toHaveLength(13)
    expect(fits.disableAddTransformation).toBe(true)
  })

  it('replacing the selected item keeps it selected, and a preset clears the selection', () => {
    const selected = run(
      [
        { type: 'add', item: FLIP },
        { type: 'add', item: RESIZE },
      ],
      start,
    )
    expect(selected.selectedTransformIdx).toBe(1)
    const blur = op('t', 'blur')
    const replaced = run([{ type: 'replace', item: blur }], selected)
    expect(replaced.transformationList[1]?.method).toBe('blur')
    expect(replaced.selectedTransformIdx).toBe(1)
    const withPreset = run([{ type: 'replace', item: preset('p2', 2) }], replaced)
    expect(withPreset.transformationList[1]?.presetName).toBe('p2')
    expect(withPreset.selectedTransformIdx).toBeNull()
    expect(chainCount(withPreset.transformationList)).toBe(3)
  })

  it('refuses a replacement preset that would pass the cap', () => {
    const full = run([{ type: 'add', item: RESIZE }], filled(14))
    const refused = run([{ type: 'replace', item: preset('big', 3) }], full)
    expect(refused.error).toBe('Cannot add preset, causing more than 15 transformations.')
    expect(refused.transformationList[14]?.method).toBe('resize')
  })

  it('deleting re-enables adding below 15', () => {
    const fifteen = filled(15)
    expect(fifteen.disableAddTransformation).toBe(true)
    const fourteen = run([{ type: 'delete', index: 3 }], fifteen)
    expect(fourteen.disableAddTransformation).toBe(false)
    expect(fourteen.transformationList).toHaveLength(14)
  })

  it('deleting the last item resets preview and transformed to the original', () => {
    const one = run(
      [
        { type: 'add', item: RESIZE },
        { type: 'set_field', key: 'w', value: '300' },
      ],
      start,
    )
    expect(one.transformedUrl).toContain('t.resize(w:300)')
    const none = run([{ type: 'delete', index: 0 }], one)
    expect(none.previewUrl).toBe(none.originalUrl)
    expect(none.transformedUrl).toBe(none.originalUrl)
    expect(none.selectedTransformIdx).toBeNull()
  })

  it('previews the chain up to the selected item', () => {
    const state = run(
      [
        { type: 'add', item: RESIZE },
        { type: 'add', item: FLIP },
        { type: 'select', index: 0 },
      ],
      start,
    )
    expect(state.previewUrl).toBe('http://localhost:4201/v2/demo/t.resize()/samples/astronaut.png')
    expect(state.transformedUrl).toContain('t.resize()~t.flip()')
  })

  it('stash keeps the prior list and unstash restores it', () => {
    const before = run(
      [
        { type: 'add', item: FLIP },
        { type: 'add', item: RESIZE },
      ],
      start,
    )
    const stashed = run(
      [{ type: 'stash' }, { type: 'add', item: preset('look', 2) }, { type: 'delete', index: 0 }],
      before,
    )
    expect(stashed.prevTransformationList).toEqual(before.transformationList)
    const back = run([{ type: 'unstash' }], stashed)
    expect(back.transformationList).toEqual(before.transformationList)
    expect(back.transformedUrl).toBe(before.transformedUrl)
    expect(back.prevTransformationList).toBeNull()
  })

  it('unstash with a preset name restores the prior list minus that preset', () => {
    const before = run(
      [
        { type: 'add', item: FLIP },
        { type: 'add', item: preset('look', 2) },
        { type: 'add', item: preset('other', 1) },
      ],
      start,
    )
    const back = run(
      [{ type: 'stash' }, { type: 'clear' }, { type: 'unstash', presetName: 'look' }],
      before,
    )
    // clear drops the stash too, so nothing is restored after it
    expect(back.transformationList).toEqual([])
    const restored = run([{ type: 'stash' }, { type: 'unstash', presetName: 'look' }], before)
    expect(restored.transformationList.map((item) => item.method)).toEqual(['flip', 'other'])
  })

  it('clear returns to the defaults and keeps fromUrl and the image', () => {
    const opened = run([
      {
        type: 'open_url',
        url: `${ORIGINAL.replace('original', 't.flip()')}`,
        source: SOURCE,
        items: [FLIP],
      },
      { type: 'add', item: RESIZE },
      { type: 'show_options', tab: 'presets' },
    ])
    const cleared = run([{ type: 'clear' }], opened)
    expect(cleared.fromUrl).toBe(opened.fromUrl)
    expect(cleared.transformationList).toEqual([])
    expect(cleared.selectedTransformIdx).toBeNull()
    expect(cleared.playgroundTab).toBe('transformations')
    expect(cleared.isPresetsVisible).toBe(false)
    expect(cleared.transformedUrl).toBe(ORIGINAL)
  })

  it('the value editor sets a field, resets a field and resets all', () => {
    const editing = run(
      [
        { type: 'add', item: RESIZE },
        { type: 'set_field', key: 'w', value: '300' },
        { type: 'set_field', key: 'h', value: '200' },
      ],
      start,
    )
    expect(editing.editDefaultTransformation?.values).toEqual({ w: '300', h: '200' })
    expect(editing.transformedUrl).toContain('t.resize(w:300,h:200)')
    const oneReset = run([{ type: 'reset_field', key: 'w' }], editing)
    expect(oneReset.editDefaultTransformation?.values).toEqual({ h: '200' })
    expect(oneReset.transformationList[0]?.values).toEqual({ h: '200' })
    const allReset = run([{ type: 'reset_all' }], oneReset)
    expect(allReset.editDefaultTransformation?.values).toEqual({})
    expect(allReset.transformedUrl).toContain('t.resize()')
    // the value at selection is kept for comparison
    expect(allReset.defaultTransformation?.values).toEqual({})
  })

  it('hides archived presets', () => {
    const state = run([
      {
        type: 'set_presets',
        presets: [
          { presetName: 'a', transformation: 't.flip()' },
          { presetName: 'b', transformation: 't.flip()', archived: true },
        ],
      },
    ])
    expect(state.presetData.map((p) => p.presetName)).toEqual(['a'])
  })
})

describe('the playground panels and details', () => {
  it('moving an item reorders the URL and selects the moved item', () => {
    const state = run(
      [
        { type: 'add', item: FLIP },
        { type: 'add', item: RESIZE },
      ],
      start,
    )
    const moved = playgroundReducer(state, { type: 'move', from: 1, to: 0 })
    expect(moved.transformationList.map((item) => item.method)).toEqual(['resize', 'flip'])
    expect(moved.selectedTransformIdx).toBe(0)
    expect(moved.transformedUrl).toBe(deliveryUrl(SOURCE, [RESIZE, FLIP]))
  })

  it('refuses a move past either end of the chain', () => {
    const state = run(
      [
        { type: 'add', item: FLIP },
        { type: 'add', item: RESIZE },
      ],
      start,
    )
    expect(playgroundReducer(state, { type: 'move', from: 0, to: -1 })).toBe(state)
    expect(playgroundReducer(state, { type: 'move', from: 1, to: 2 })).toBe(state)
    expect(playgroundReducer(state, { type: 'move', from: 5, to: 0 })).toBe(state)
  })

  it('keeping a tried preset forgets the stashed chain and keeps the new one', () => {
    const state = run(
      [{ type: 'add', item: FLIP }, { type: 'stash' }, { type: 'add', item: preset('card', 2) }],
      start,
    )
    const kept = playgroundReducer(state, { type: 'keep_stash' })
    expect(kept.prevTransformationList).toBeNull()
    expect(kept.transformationList).toEqual(state.transformationList)
  })

  it('shows one options tab at a time and hides both', () => {
    const presets = run([{ type: 'show_options', tab: 'presets' }], start)
    expect(presets.isPresetsVisible).toBe(true)
    expect(presets.isTransformationVisible).toBe(false)
    const hidden = playgroundReducer(presets, { type: 'hide_options' })
    expect(hidden.isPresetsVisible).toBe(false)
    expect(hidden.isTransformationVisible).toBe(false)
  })

  it('records the details of the original and of the shown image apart', () => {
    const details = { width: 10, height: 20, format: 'png', bytes: 300 }
    const state = run(
      [
        { type: 'set_details', which: 'original', details },
        { type: 'set_details', which: 'preview', details: null },
      ],
      start,
    )
    expect(state.originalDetails).toEqual(details)
    expect(state.previewDetails).toBeNull()
  })

  it('dismissing the refusal clears the error and keeps the chain', () => {
    const refused = playgroundReducer(filled(15), { type: 'add', item: FLIP })
    expect(refused.error).not.toBeNull()
    const dismissed = playgroundReducer(refused, { type: 'dismiss_error' })
    expect(dismissed.error).toBeNull()
    expect(dismissed.transformationList).toHaveLength(15)
  })
})

describe('reading a shared delivery URL', () => {
  it('round-trips a chain with values, a preset and query options', () => {
    const url =
      'http://localhost:4201/v2/demo/t.resize(w:300,h:200)~t.flip()~p:card(w:10)/samples/astronaut.png?f_auto=true'
    const read = readDeliveryUrl(url, [{ presetName: 'card', transformation: 't.flip()~t.flop()' }])
    expect(read).not.toBeNull()
    if (read === null) return
    expect(read.source.cloudName).toBe('demo')
    expect(read.items.map((item) => item.displayName)).toEqual([
      'Resize an image',
      'Flip an image vertically',
      'card',
    ])
    expect(chainCount(read.items)).toBe(4)
    expect(deliveryUrl(read.source, read.items)).toBe(url)
  })

  it('rejects text that is not a delivery URL', () => {
    expect(readDeliveryUrl('not a url', [])).toBeNull()
    expect(readDeliveryUrl('http://localhost/about', [])).toBeNull()
  })
})
