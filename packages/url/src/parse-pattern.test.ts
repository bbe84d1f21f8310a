import { describe, expect, it } from 'vitest'
import { createCatalogue, type ParamSpec, type PluginSpec } from './catalogue.ts'
import { MESSAGES, TransformationError } from './errors.ts'
import { parsePattern } from './parse-pattern.ts'
import { checkParamValue, parseListValue } from './validate.ts'

describe('parsePattern keeps valid operations with typed values and defaults', () => {
  it('applies the defaults of the parameters the URL leaves out', () => {
    const { value, issues } = parsePattern('t.resize(w:300)')
    expect(issues).toEqual([])
    expect(value[0]?.params).toEqual({
      w: 300,
      h: 0,
      f: 'cover',
      b: '000000',
      p: 'center',
      k: 'lanczos3',
      dpr: 1,
    })
    expect(value[0]?.spec?.key).toBe('t.resize')
    expect(value[0]).toMatchObject({
      index: 0,
      text: 't.resize(w:300)',
      plugin: 't',
      name: 'resize',
    })
  })

  it('types every value', () => {
    const { value, issues } = parsePattern(
      't.merge(m:underlay,i:abc,bg:FF000080,r:1,bboxes:[[1_2_3_4]],polys:[[[1_2]_[3_4]_[5_6]]])~t.extract(bbox:0_0_100_50)~t.blur(s:2.5)',
    )
    expect(issues).toEqual([])
    expect(value[0]?.params).toMatchObject({
      m: 'underlay',
      i: 'abc',
      bg: 'ff000080',
      r: true,
      bboxes: [[1, 2, 3, 4]],
      polys: [
        [
          [1, 2],
          [3, 4],
          [5, 6],
        ],
      ],
    })
    expect(value[1]?.params.bbox).toEqual([0, 0, 100, 50])
    expect(value[2]?.params.s).toBe(2.5)
  })

  it('skips values that are preset variables', () => {
    const { value, issues } = parsePattern('t.resize(w:$width,h:$h)')
    expect(issues).toEqual([])
    expect(value[0]?.params).toMatchObject({ w: '$width', h: '$h' })
  })

  it('keeps preset references with their variables', () => {
    const { value, issues } = parsePattern('p:thumb~p:card(w:3)~p.apply(n:hero,w:4)')
    expect(issues).toEqual([])
    expect(value.map((operation) => [operation.presetName, operation.params])).toEqual([
      ['thumb', {}],
      ['card', { w: '3' }],
      ['hero', { w: '4' }],
    ])
  })

  it('parses operations the server cannot run, so URLs for other services keep parsing', () => {
    const { value, issues } = parsePattern('erase.bg(i:human)~sr.upscale(t:4x)~wm.remove()')
    expect(issues).toEqual([])
    expect(value.map((operation) => operation.spec?.key)).toEqual([
      'erase.bg',
      'sr.upscale',
      'wm.remove',
    ])
  })

  it('gives nothing for original and the empty pattern', () => {
    expect(parsePattern('original')).toEqual({ value: [], issues: [] })
    expect(parsePattern('')).toEqual({ value: [], issues: [] })
  })
})

describe('parsePattern drops an invalid operation and says why', () => {
  const cases: Array<[string, string, Record<string, unknown>]> = [
    [
      'whose plugin is unknown',
      'zz.resize()',
      { code: 'unknown_plugin', message: MESSAGES.pluginNotFound('zz') },
    ],
    [
      'whose method is unknown',
      't.zoom()',
      { code: 'unknown_operation', message: MESSAGES.operationNotFound('t', 'zoom') },
    ],
    [
      'with more parameters than defined',
      't.compress(q:1,a:2)',
      { code: 'too_many_params', message: 'Invalid params provided' },
    ],
    [
      'with an unknown parameter',
      't.compress(x:1)',
      { code: 'unknown_param', message: 'Invalid params provided', param: 'x' },
    ],
    [
      'with a non-integer integer',
      't.resize(w:1.5)',
      {
        code: 'invalid_type',
        param: 'w',
        message: "Expected an integer for t.resize.w, received '1.5'",
      },
    ],
    ['with a non-number float', 't.blur(s:abc)', { code: 'invalid_type', param: 's' }],
    ['with a colour of 7 digits', 't.flatten(b:fffffff)', { code: 'invalid_type', param: 'b' }],
    ['with a colour that is not hex', 't.tint(c:gg0000)', { code: 'invalid_type', param: 'c' }],
    ['with a value outside its enum', 't.resize(f:stretch)', { code: 'invalid_type', param: 'f' }],
    ['with a boolean that is not one', 't.merge(r:yes)', { code: 'invalid_type', param: 'r' }],
    ['with a bbox of 3 numbers', 't.extract(bbox:1_2_3)', { code: 'invalid_type', param: 'bbox' }],
    ['with a bbox list that is not JSON', 't.merge(bboxes:[[1_2_3_4]', { code: 'invalid_syntax' }],
    [
      'with a bbox list of bad JSON',
      't.merge(bboxes:[[1_2_3_x]])',
      { code: 'invalid_type', param: 'bboxes', message: MESSAGES.listFormat },
    ],
    [
      'with a bbox list of short boxes',
      't.merge(bboxes:[[1_2_3]])',
      { code: 'invalid_type', param: 'bboxes', message: MESSAGES.listFormat },
    ],
    [
      'with a polygon of 3-number points',
      't.merge(polys:[[[1_2_3]]])',
      { code: 'invalid_type', param: 'polys', message: MESSAGES.listFormat },
    ],
    [
      'with a value below its minimum',
      't.trim(t:0)',
      { code: 'too_small', param: 't', message: MESSAGES.tooSmall('t', 1) },
    ],
    [
      'with a value above its maximum',
      't.compress(q:101)',
      { code: 'too_big', param: 'q', message: MESSAGES.tooBig('q', 100) },
    ],
    [
      'with a syntax error',
      't.compress',
      { code: 'invalid_syntax', message: 'missing parentheses' },
    ],
    [
      'p.apply without n',
      'p.apply(w:1)',
      { code: 'invalid_preset', message: MESSAGES.presetMissingName('p.apply(w:1)') },
    ],
  ]
  it.each(cases)('drops an operation %s', (_name, text, issue) => {
    const result = parsePattern(`t.flip()~${text}~t.grey()`)
    expect(result.value.map((operation) => operation.name)).toEqual(['flip', 'grey'])
    expect(result.issues).toHaveLength(1)
    expect(result.issues[0]).toMatchObject({ ...issue, index: 1, operation: text })
  })

  it('reports every bad parameter of a dropped operation', () => {
    const { value, issues } = parsePattern('t.resize(w:abc,h:-5,f:x)')
    expect(value).toEqual([])
    expect(issues.map((issue) => [issue.code, issue.param])).toEqual([
      ['invalid_type', 'w'],
      ['too_small', 'h'],
      ['invalid_type', 'f'],
    ])
  })

  // Issue 9 item 13: a repeated parameter was read silently (the last one won).
  it('drops an operation that gives a parameter twice', () => {
    const { value, issues } = parsePattern('t.resize(w:100,w:200)~t.flip()~p:thumb(a:1,a:2)')
    expect(value.map((operation) => operation.name)).toEqual(['flip'])
    expect(issues).toEqual([
      {
        code: 'duplicate_param',
        message: MESSAGES.duplicateParam('w', 't.resize(w:100,w:200)'),
        index: 0,
        operation: 't.resize(w:100,w:200)',
        param: 'w',
      },
      expect.objectContaining({ code: 'duplicate_param', index: 2, param: 'a' }),
    ])
  })

  it('drops an operation that does not accept the source format', () => {
    const { value, issues } = parsePattern('vsr.upscale()~t.flip()', { format: 'png' })
    expect(value.map((operation) => operation.name)).toEqual(['flip'])
    expect(issues[0]).toMatchObject({
      code: 'format_not_allowed',
      message: 'vsr.upscale does not accept png files',
    })
    expect(parsePattern('vsr.upscale()', { format: 'MP4' }).issues).toEqual([])
  })

  it('throws its own error only when the pattern is not a string', () => {
    expect(() => parsePattern(5 as unknown as string)).toThrowError(TransformationError)
  })
})

describe('parsePattern with a catalogue of its own', () => {
  const param = (spec: Partial<ParamSpec> & Pick<ParamSpec, 'id' | 'type'>): ParamSpec => ({
    name: spec.id,
    title: spec.id,
    default: null,
    required: false,
    ...spec,
  })
  const plugins: PluginSpec[] = [
    {
      id: 'x',
      name: 'Example',
      description: '',
      operations: [
        {
          plugin: 'x',
          method: 'op',
          key: 'x.op',
          runnable: true,
          slow: false,
          displayName: 'Op',
          description: '',
          params: [
            param({ id: 'n', type: 'integer', required: true, min: 1, max: 10 }),
            param({ id: 'f', type: 'float', min: -1.5, max: 1.5, default: 0.5 }),
          ],
        },
      ],
    },
  ]
  const catalogue = createCatalogue(plugins)

  it('requires required parameters', () => {
    expect(parsePattern('x.op()', { catalogue }).issues[0]).toMatchObject({
      code: 'required',
      param: 'n',
      message: 'n is a required field',
    })
  })

  it('checks min and max, inclusive', () => {
    expect(parsePattern('x.op(n:1,f:-1.5)~x.op(n:10,f:1.5)', { catalogue }).issues).toEqual([])
    expect(parsePattern('x.op(n:11)', { catalogue }).issues[0]?.message).toBe(
      'Value for n must be less than or equal to 10',
    )
    expect(parsePattern('x.op(n:2,f:-1.6)', { catalogue }).issues[0]?.message).toBe(
      'Value for f must be greater than or equal to -1.5',
    )
  })

  it('does not know the built-in plugins', () => {
    expect(parsePattern('t.flip()', { catalogue }).issues[0]?.code).toBe('unknown_plugin')
  })
})

describe('checkParamValue', () => {
  const spec = (type: ParamSpec['type'], extra: Partial<ParamSpec> = {}): ParamSpec => ({
    id: 'v',
    name: 'v',
    title: 'V',
    type,
    default: null,
    required: false,
    ...extra,
  })
  it.each<[ParamSpec['type'], string, unknown, Partial<ParamSpec>?]>([
    ['integer', '42', 42],
    ['integer', '-7', -7],
    ['float', '0.25', 0.25],
    ['float', '.5', 0.5],
    ['float', '-3', -3],
    ['string', 'anything at all', 'anything at all'],
    ['file', 'eU44YkFJOHlVMmZrWVRDOUNTRm1D', 'eU44YkFJOHlVMmZrWVRDOUNTRm1D'],
    ['color', 'ABCDEF', 'abcdef'],
    ['color', '00000000', '00000000'],
    ['enum', 'b', 'b', { enum: ['a', 'b'] }],
    ['boolean', 'true', true],
    ['boolean', 'FALSE', false],
    ['boolean', '1', true],
    ['boolean', '0', false],
    ['bbox', '0_0_100_100', [0, 0, 100, 100]],
    [
      'bboxList',
      '[[10_10_100_100]_[200_20_100_100]]',
      [
        [10, 10, 100, 100],
        [200, 20, 100, 100],
      ],
    ],
    [
      'polygonList',
      '[[[10_20]_[110_20]_[110_120]]]',
      [
        [
          [10, 20],
          [110, 20],
          [110, 120],
        ],
      ],
    ],
  ])('accepts %s %s', (type, raw, value, extra) => {
    expect(checkParamValue(raw, spec(type, extra), 'x.y.v')).toEqual({ ok: true, value })
  })

  it.each<[ParamSpec['type'], string, Partial<ParamSpec>?]>([
    ['integer', '4.2'],
    ['integer', '1e3'],
    ['integer', '99999999999999999999'],
    ['integer', ''],
    ['float', '1.'],
    ['float', 'NaN'],
    ['float', 'Infinity'],
    ['file', ''],
    ['color', '#ffffff'],
    ['color', 'fff'],
    ['enum', 'c', { enum: ['a', 'b'] }],
    ['boolean', 'yes'],
    ['bbox', '1_2_3_4_5'],
    ['bbox', '1_2_3_x'],
    ['bboxList', '[[1_2_3_4]_5]'],
    ['bboxList', '{}'],
    ['polygonList', '[[1_2]]'],
    ['polygonList', '[[]]'],
  ])('refuses %s %j', (type, raw, extra) => {
    expect(checkParamValue(raw, spec(type, extra), 'x.y.v').ok).toBe(false)
  })
})

describe('parseListValue', () => {
  it('reads _-separated lists as JSON', () => {
    expect(parseListValue('[1_[2_3]]')).toEqual({ ok: true, value: [1, [2, 3]] })
  })
  it("says 'Received value is of invalid format' for bad JSON", () => {
    expect(parseListValue('[1_')).toEqual({
      ok: false,
      message: 'Received value is of invalid format',
    })
  })
  it("says 'Value must be a string' for a value that is not text", () => {
    expect(parseListValue(5)).toEqual({ ok: false, message: 'Value must be a string' })
  })
})
