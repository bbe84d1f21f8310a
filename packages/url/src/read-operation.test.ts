import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRandom, fuzzInput, mutate } from '../test/fuzz-inputs.ts'
import { parseOperationSyntax, splitOperations, type Transformation } from './pattern.ts'
import { readTransformations } from './read-operation.ts'

// The two-step reading the one-pass reader must agree with: split, then read each operation.
function twoStep(pattern: string): Transformation[] | undefined {
  const list: Transformation[] = []
  for (const text of splitOperations(pattern)) {
    const syntax = parseOperationSyntax(text)
    if (!syntax.ok) return undefined
    list.push(syntax.transformation)
  }
  return list
}

function expectAgreement(pattern: string): void {
  const fast = readTransformations(pattern)
  // The one-pass reader may decline a pattern (the caller then reads it in two steps), but what
  // it returns is what the two steps return.
  if (fast !== undefined) expect(fast).toEqual(twoStep(pattern))
}

describe('readTransformations, the one-pass pattern reader', () => {
  it.each([
    't.resize(h:200,w:300)~t.flip()',
    'p:thumb~t.grey()',
    'p:thumb(w:1)',
    'p:thumb()',
    'p.apply(n:thumb,w:2)',
    't.merge(m:underlay,tr:t.resize(w:1)~t.flip(),b:screen)',
    't.extract(bbox:[[1_2_3_4]_[5_6_7_8]])',
    't.resize(w:1,w:2,h:3,w:4)',
    't.a(a:1,b:2,c:3,d:4,e:5,f:6,g:7,h:8,i:9,a:10)',
    't.a(x:a:b)',
    't.a(x:~)',
  ])('reads %j as the two-step reader does', (pattern) => {
    expect(readTransformations(pattern)).toEqual(twoStep(pattern))
  })

  it.each([
    '',
    '~',
    't.flip()~',
    't.flip()x',
    't.a(x:1)(y:2)',
    't.a(,)',
    't.a(x:1,)',
    't.a(x:)',
    't.a(:1)',
    't.a(x:1]',
    't.a(x:[1)',
    't.a(x:1)~t.b(',
    't.a(x:~)~bad~t.b(',
    'p:',
    'p:a.b',
    't.(x:1)',
    '.a()',
    't.a',
  ])('declines %j, which the two-step reader reads or refuses itself', (pattern) => {
    expect(readTransformations(pattern)).toBeUndefined()
  })

  it.each(['t.resize(h:200,w:300)~t.flip()', 'p:thumb~p:other', 'p:thumb', 't.a(x:1)'])(
    'reads %j in place inside a longer text as on its own',
    (pattern) => {
      const text = `/v2/demo/${pattern}/a(b:c)~p:d`
      expect(readTransformations(text, 9, 9 + pattern.length)).toEqual(readTransformations(pattern))
    },
  )

  it('agrees with the two-step reader on fuzzed and mutated patterns', () => {
    const random = createRandom(1427)
    for (let i = 0; i < 20000; i++) {
      const input = fuzzInput(random, i)
      expectAgreement(input)
      expectAgreement(mutate(random, 't.resize(h:200,w:300)~t.merge(tr:p:a~t.b(x:[1_2]))~p:x'))
    }
  })

  it('agrees with the two-step reader on generated patterns', () => {
    const unit = fc.constantFrom(...'tp.:(),~[]_ax1$'.split(''))
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (pattern) => expectAgreement(pattern)),
      { numRuns: 20000 },
    )
  })
})
