import { describe, expect, it } from 'vitest'
import { IllegalArgumentError, MESSAGES, TransformationError } from './errors.ts'
import {
  buildPattern,
  parseOperationSyntax,
  parseTransformations,
  splitOperations,
  type TransformationInput,
} from './pattern.ts'

describe('splitOperations', () => {
  it.each([
    ['t.resize(w:1)~t.flip()', ['t.resize(w:1)', 't.flip()']],
    ['t.merge(tr:a.b(c:1)~d.e())~t.grey()', ['t.merge(tr:a.b(c:1)~d.e())', 't.grey()']],
    ['t.merge(b:[1~2])~t.grey()', ['t.merge(b:[1~2])', 't.grey()']],
    ['p:a~~p:b', ['p:a', '', 'p:b']],
    // Unbalanced: every ~ splits, so each part can be judged on its own.
    ['t.resize(w:1~t.flip()', ['t.resize(w:1', 't.flip()']],
    ['t.flip())~t.grey()', ['t.flip())', 't.grey()']],
  ])('splits %s', (pattern, parts) => {
    expect(splitOperations(pattern)).toEqual(parts)
  })
})

describe('parseOperationSyntax', () => {
  it.each([
    ['t.flip()', { plugin: 't', name: 'flip' }],
    [
      't.resize(w:300,h:200)',
      {
        plugin: 't',
        name: 'resize',
        values: [
          { key: 'w', value: '300' },
          { key: 'h', value: '200' },
        ],
      },
    ],
    ['p:thumb', { plugin: 'p', name: 'thumb' }],
    ['p:thumb()', { plugin: 'p', name: 'thumb' }],
    ['p:thumb(w:1)', { plugin: 'p', name: 'thumb', values: [{ key: 'w', value: '1' }] }],
    [
      'p.apply(n:thumb,w:1)',
      {
        plugin: 'p',
        name: 'apply',
        values: [
          { key: 'n', value: 'thumb' },
          { key: 'w', value: '1' },
        ],
      },
    ],
    [
      'ic.crop(obj_threshold_perc:5)',
      { plugin: 'ic', name: 'crop', values: [{ key: 'obj_threshold_perc', value: '5' }] },
    ],
    ['awsRek.detect-labels_2()', { plugin: 'awsRek', name: 'detect-labels_2' }],
    ['t.x(i:a:b)', { plugin: 't', name: 'x', values: [{ key: 'i', value: 'a:b' }] }],
    ['t.x(w:$width)', { plugin: 't', name: 'x', values: [{ key: 'w', value: '$width' }] }],
  ])('reads %s', (text, transformation) => {
    expect(parseOperationSyntax(text)).toEqual({ ok: true, transformation })
  })

  it.each([
    ['', 'empty operation'],
    ['t.compress', 'missing parentheses'],
    ['p:', 'invalid preset name'],
    ['p:a.b', 'invalid preset name'],
    ['p:a b()', 'invalid preset name'],
    ['t.resize(h:10)x', 'missing closing parenthesis or text after it'],
    ['p:preset1(a:12', 'missing closing parenthesis or text after it'],
    ['tresize()', 'missing plugin or operation name'],
    ['t.a.b()', 'invalid plugin or operation name'],
    ['.resize()', 'invalid plugin or operation name'],
    ['t.()', 'invalid plugin or operation name'],
    ['t!.resize()', 'invalid plugin or operation name'],
    ['t.resize(h:(1)', 'unbalanced brackets'],
    ['t.resize(h)', MESSAGES.valueMissing('h', 't.resize')],
    ['t.resize(h:)', MESSAGES.valueMissing('h', 't.resize')],
    ['t.resize(:1)', MESSAGES.keyMissing('t.resize')],
    ['t.resize(h:1,,w:2)', MESSAGES.keyMissing('t.resize')],
  ])('refuses %j: %s', (text, reason) => {
    expect(parseOperationSyntax(text)).toEqual({ ok: false, reason })
  })
})

describe('parseTransformations', () => {
  it('gives no operations for original and the empty pattern', () => {
    expect(parseTransformations('original')).toEqual([])
    expect(parseTransformations('')).toEqual([])
  })

  it('reads operations and presets in order', () => {
    expect(parseTransformations('t.resize(w:1)~p:thumb~erase.bg()')).toEqual([
      { plugin: 't', name: 'resize', values: [{ key: 'w', value: '1' }] },
      { plugin: 'p', name: 'thumb' },
      { plugin: 'erase', name: 'bg' },
    ])
  })

  it("throws 'Invalid pattern' with the reason for the first bad operation", () => {
    let caught: unknown
    try {
      parseTransformations('t.flip()~t.compress')
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(TransformationError)
    expect(caught).toMatchObject({
      code: 'transformation_error',
      message: 'Invalid pattern',
      cause: 't.compress: missing parentheses',
    })
  })

  it('throws its own error for a value that is not a string', () => {
    expect(() => parseTransformations(undefined as unknown as string)).toThrowError(
      TransformationError,
    )
  })
})

describe('buildPattern', () => {
  it.each<[string, TransformationInput[] | null | undefined, string]>([
    ['nothing for null', null, ''],
    ['nothing for an empty list', [], ''],
    [
      'operations joined by ~',
      [
        { plugin: 't', name: 'flip' },
        { plugin: 't', name: 'grey' },
      ],
      't.flip()~t.grey()',
    ],
    [
      'parameters joined by commas',
      [
        {
          plugin: 't',
          name: 'resize',
          values: [
            { key: 'w', value: 1 },
            { key: 'h', value: '2' },
          ],
        },
      ],
      't.resize(w:1,h:2)',
    ],
    [
      'lists with underscores',
      [
        {
          plugin: 'p',
          name: 'x',
          values: [
            {
              key: 'polys',
              value: [
                [
                  [1, 2],
                  [3, 4],
                ],
              ],
            },
          ],
        },
      ],
      'p:x(polys:[[[1_2]_[3_4]]])',
    ],
    ['skips entries without name', [{ plugin: 't' }, { plugin: 't', name: 'flip' }], 't.flip()'],
  ])('writes %s', (_name, list, pattern) => {
    expect(buildPattern(list)).toBe(pattern)
  })

  it.each<[string, unknown, string]>([
    ['a list that is not an array', 'x', MESSAGES.arrayExpected('transformations', 'string')],
    ['an entry that is not an object', [1], MESSAGES.objectExpected('each transformation')],
    [
      'a pair that is not an object',
      [{ plugin: 't', name: 'a', values: [null] }],
      MESSAGES.keyMissing('a'),
    ],
    [
      'a key with a colon',
      [{ plugin: 't', name: 'a', values: [{ key: 'a:b', value: '1' }] }],
      MESSAGES.nameInvalid('a'),
    ],
    [
      'a NaN value',
      [{ plugin: 't', name: 'a', values: [{ key: 'w', value: Number.NaN }] }],
      MESSAGES.valueMissing('w', 'a'),
    ],
    [
      'an object value',
      [{ plugin: 't', name: 'a', values: [{ key: 'w', value: {} }] }],
      MESSAGES.valueMissing('w', 'a'),
    ],
    [
      'a list holding an object',
      [{ plugin: 't', name: 'a', values: [{ key: 'w', value: [{}] }] }],
      MESSAGES.valueUnsafe('w', 'a'),
    ],
    [
      'an unbalanced value',
      [{ plugin: 't', name: 'a', values: [{ key: 'w', value: 'x)' }] }],
      MESSAGES.valueUnsafe('w', 'a'),
    ],
    [
      'a value with a query mark',
      [{ plugin: 't', name: 'a', values: [{ key: 'w', value: 'x?y' }] }],
      MESSAGES.valueUnsafe('w', 'a'),
    ],
  ])('refuses %s', (_name, list, message) => {
    expect(() => buildPattern(list as TransformationInput[])).toThrowError(
      new IllegalArgumentError(message),
    )
  })

  it('reads back what it writes', () => {
    const list = [
      {
        plugin: 't',
        name: 'merge',
        values: [
          { key: 'tr', value: 't.resize(w:1,h:2)~t.flip()' },
          { key: 'i', value: 'abc' },
        ],
      },
      {
        plugin: 'p',
        name: 'apply',
        values: [
          { key: 'n', value: 'card' },
          { key: 'w', value: '2' },
        ],
      },
    ]
    expect(parseTransformations(buildPattern(list))).toEqual(list)
  })
})
