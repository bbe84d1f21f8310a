import { describe, expect, it } from 'vitest'
import { CATALOGUE } from './catalogue.ts'
import { PARAM_TYPES } from './constants.ts'
import { parsePattern } from './parse-pattern.ts'
import { checkParamValue } from './validate.ts'

const operations = CATALOGUE.plugins.flatMap((plugin) => plugin.operations)
// Tessera's own plugins (scripts/extensions/) say so in their description.
const isExtension = (plugin: { description: string }) =>
  plugin.description.includes('(a Tessera extension)')
const reference = CATALOGUE.plugins.filter((plugin) => !isExtension(plugin))
const params = operations.flatMap((operation) =>
  operation.params.map((param) => ({ operation, param })),
)

describe('the operation catalogue', () => {
  it('holds every plugin and operation of the reference catalogue', () => {
    expect(reference).toHaveLength(31)
    expect(reference.flatMap((plugin) => plugin.operations)).toHaveLength(55)
    // Tessera's own plugins beside them: pdf (pdf.page) and vid (vid.frame, vid.trim).
    expect(
      CATALOGUE.plugins
        .filter(isExtension)
        .map((plugin) => plugin.id)
        .sort(),
    ).toEqual(['pdf', 'vid'])
    expect(CATALOGUE.plugins.map((plugin) => plugin.id)).toEqual(
      expect.arrayContaining([
        't',
        'erase',
        'sr',
        'wm',
        'ic',
        'awsRek',
        'numPlate',
        'vertexAi',
        'remove',
      ]),
    )
  })

  it('has every basic operation of the t plugin', () => {
    expect(CATALOGUE.getPlugin('t')?.operations.map((operation) => operation.method)).toEqual([
      'resize',
      'compress',
      'extend',
      'extract',
      'trim',
      'rotate',
      'flip',
      'flop',
      'sharpen',
      'median',
      'blur',
      'flatten',
      'negate',
      'normalise',
      'linear',
      'modulate',
      'grey',
      'tint',
      'toFormat',
      'density',
      'merge',
    ])
  })

  it('keys every operation as plugin.method and finds it by that key', () => {
    for (const operation of operations) {
      expect(operation.key).toBe(`${operation.plugin}.${operation.method}`)
      expect(CATALOGUE.getOperation(operation.plugin, operation.method)).toBe(operation)
    }
  })

  it('gives every operation the runnable and slow flags', () => {
    for (const operation of reference.flatMap((plugin) => plugin.operations)) {
      expect(typeof operation.runnable).toBe('boolean')
      // Tessera's pdf.page draws a page: no slower than a transformation of the t plugin.
      expect(operation.slow).toBe(operation.plugin !== 't' && operation.plugin !== 'pdf')
    }
    // Video frames and cuts are not AI work: not slow (delivery makes video outputs jobs).
    const vid = CATALOGUE.getPlugin('vid')?.operations ?? []
    expect(vid.map((operation) => [operation.key, operation.slow])).toEqual([
      ['vid.frame', false],
      ['vid.trim', false],
    ])
  })

  it('describes resize as the reference does', () => {
    const resize = CATALOGUE.getOperation('t', 'resize')
    expect(resize?.params.map((param) => param.id)).toEqual(['h', 'w', 'f', 'b', 'p', 'k', 'dpr'])
    expect(resize?.params[2]).toMatchObject({
      id: 'f',
      title: 'Fit',
      type: 'enum',
      default: 'cover',
    })
    expect(resize?.params[0]).toMatchObject({ min: 0, max: 12000 })
  })

  it.each(
    params.map(
      ({ operation, param }) => [`${operation.key}.${param.id}`, operation, param] as const,
    ),
  )('has a default for %s that passes its own validation', (where, _operation, param) => {
    expect(PARAM_TYPES).toContain(param.type)
    if (param.default === null || param.default === '') return
    const check = checkParamValue(String(param.default), param, where)
    expect(check).toMatchObject({ ok: true })
    if (param.min !== undefined) expect(Number(param.default)).toBeGreaterThanOrEqual(param.min)
    if (param.max !== undefined) expect(Number(param.default)).toBeLessThanOrEqual(param.max)
  })

  it('has no duplicate parameter ids within an operation', () => {
    for (const operation of operations) {
      const ids = operation.params.map((param) => param.id)
      expect(new Set(ids).size).toBe(ids.length)
    }
  })

  // AI (slow) operations cost credits: a value the engine cannot use must be refused by the
  // parser, before delivery queues or charges anything (issue 9).
  it('bounds every numeric parameter of an AI operation', () => {
    const open = operations
      .filter((operation) => operation.slow)
      .flatMap((operation) =>
        operation.params
          .filter((param) => param.type === 'integer' || param.type === 'float')
          .filter((param) => param.min === undefined || param.max === undefined)
          .map((param) => `${operation.key}.${param.id}`),
      )
    expect(open).toEqual([])
  })

  it.each([
    ['ic.crop(w:-1)', 'Value for w must be greater than or equal to 0'],
    ['ic.crop(h:12001)', 'Value for h must be less than or equal to 12000'],
    ['ic.crop(p:101)', 'Value for p must be less than or equal to 100'],
    [
      'ic.crop(ar:wide)',
      "Expected a ratio such as 16_9, 2 or 0.25 for ic.crop.ar, received 'wide'",
    ],
    ['ic.crop(ar:0_9)', "Expected a ratio such as 16_9, 2 or 0.25 for ic.crop.ar, received '0_9'"],
  ])('refuses %s in the parser', (pattern, message) => {
    expect(parsePattern(pattern).issues.map((issue) => issue.message)).toEqual([message])
  })

  it.each(['ic.crop(ar:16_9)', 'ic.crop(ar:2)', 'ic.crop(ar:0.25)', 'ic.crop(w:0,h:12000,p:100)'])(
    'accepts %s',
    (pattern) => {
      expect(parsePattern(pattern).issues).toEqual([])
    },
  )
})
