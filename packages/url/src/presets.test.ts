import { describe, expect, it } from 'vitest'
import { MESSAGES, TransformationError } from './errors.ts'
import { expandPresets, type PresetDefinition } from './presets.ts'

const PRESETS: Record<string, PresetDefinition> = {
  thumb: { transformation: 't.resize(w:200,h:200)~t.compress(q:70)' },
  card: {
    transformation: 't.resize(w:$w,h:$h)~t.extend(bc:$bg)',
    params: {
      w: { type: 'integer', default: 300 },
      h: { type: 'integer', default: 200, min: 1, max: 1000 },
      bg: { type: 'color', default: 'ffffff' },
    },
  },
  mood: {
    transformation: 't.resize(f:$fit)',
    params: { fit: { type: 'enum', enum: ['cover', 'contain'], default: 'cover' } },
  },
  empty: { transformation: 't.resize(w:$w)', params: {} },
  noDefault: { transformation: 't.resize(w:$w)', params: { w: { type: 'integer' } } },
  stray: { transformation: 't.resize(w:$zz)', params: { w: { type: 'integer', default: 1 } } },
  old: { transformation: 't.flip()', archived: true },
  nested: { transformation: 'p:thumb~t.grey()' },
  loop: { transformation: 'p:loop' },
  broken: { transformation: 't.resize(w:1' },
}

describe('expandPresets', () => {
  it.each([
    ['p:thumb', 't.resize(w:200,h:200)~t.compress(q:70)'],
    ['p:thumb()~t.flip()', 't.resize(w:200,h:200)~t.compress(q:70)~t.flip()'],
    ['p:card', 't.resize(w:300,h:200)~t.extend(bc:ffffff)'],
    ['p:card(w:120)', 't.resize(w:120,h:200)~t.extend(bc:ffffff)'],
    ['p:card(h:50,bg:000000)', 't.resize(w:300,h:50)~t.extend(bc:000000)'],
    ['p.apply(n:card,w:64)', 't.resize(w:64,h:200)~t.extend(bc:ffffff)'],
    ['p.apply(n:thumb)', 't.resize(w:200,h:200)~t.compress(q:70)'],
    ['p:mood(fit:contain)', 't.resize(f:contain)'],
    ['p:nested', 't.resize(w:200,h:200)~t.compress(q:70)~t.grey()'],
    ['t.flip()~t.grey()', 't.flip()~t.grey()'],
    ['original', 'original'],
  ])('expands %s', (pattern, expanded) => {
    expect(expandPresets(pattern, PRESETS)).toBe(expanded)
  })

  it('finds presets through a function or a Map', () => {
    expect(expandPresets('p:thumb', (name) => PRESETS[name])).toBe(
      expandPresets('p:thumb', PRESETS),
    )
    expect(expandPresets('p:thumb', new Map(Object.entries(PRESETS)))).toBe(
      expandPresets('p:thumb', PRESETS),
    )
  })

  it('does not read inherited properties as presets', () => {
    expect(() => expandPresets('p:toString', PRESETS)).toThrowError(
      MESSAGES.presetInvalid('toString'),
    )
  })

  it.each([
    ['p:nope', MESSAGES.presetInvalid('nope')],
    ['p.apply(w:1)', MESSAGES.presetMissingName('p.apply(w:1)')],
    ['p:empty', MESSAGES.presetParamsEmpty('empty')],
    ['p:stray', MESSAGES.variableNotDefined('zz')],
    ['p:card(zz:1)', MESSAGES.variableNotDefined('zz')],
    ['p:thumb(zz:1)', MESSAGES.variableNotDefined('zz')],
    ['p:card(w:abc)', MESSAGES.variableType('w', 'card', 'integer')],
    ['p:card(h:5000)', MESSAGES.variableType('h', 'card', 'integer')],
    ['p:card(bg:red)', MESSAGES.variableType('bc', 'card', 'color')],
    ['p:mood(fit:fill)', MESSAGES.variableType('f', 'mood', 'enum')],
    ['p:noDefault', MESSAGES.variableType('w', 'noDefault', 'integer')],
    ['p:old', MESSAGES.presetArchived('old')],
    ['p:loop', MESSAGES.presetTooDeep('loop')],
    ['p:broken', MESSAGES.invalidPattern],
    ['t.flip', MESSAGES.invalidPattern],
  ])('refuses %s', (pattern, message) => {
    expect(() => expandPresets(pattern, PRESETS)).toThrowError(new TransformationError(message))
  })
})
