// @pixelbin/core's own published vectors (its README's examples and its test suite's
// urlToObj/objToUrl cases, transcribed in fixtures/pixelbin-core-vectors.json): every one must
// read and write as the peer documents it, so a drift such as the unclosed preset bracket before
// the file path (issue 22) fails here. compat.test.ts covers the wider golden corpus.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { objToUrl, type UrlObjectInput, urlToObj } from './delivery-url.ts'
import {
  IllegalArgumentError,
  IllegalQueryParameterError,
  InvalidUrlError,
  TransformationError,
  type UrlError,
} from './errors.ts'

interface ReadVector {
  note: string
  url: string
  isCustomDomain: boolean
  expected?: Record<string, unknown>
  throws?: string
}
interface WriteVector {
  note: string
  obj: Record<string, unknown>
  expected?: string
  throws?: string
}

const vectors: { urlToObj: ReadVector[]; objToUrl: WriteVector[] } = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'pixelbin-core-vectors.json'), 'utf8'),
)

const ERRORS: Record<string, new (message: string) => UrlError> = {
  PDKInvalidUrlError: InvalidUrlError,
  PDKIllegalArgumentError: IllegalArgumentError,
  PDKIllegalQueryParameterError: IllegalQueryParameterError,
  PDKTransformationError: TransformationError,
}

function errorClass(name: string): new (message: string) => UrlError {
  const found = ERRORS[name]
  if (found === undefined) throw new Error(`no error class for ${name}`)
  return found
}

describe("@pixelbin/core's published vectors", () => {
  it('has the vectors, the unclosed-bracket ones included', () => {
    expect(vectors.urlToObj.length).toBeGreaterThanOrEqual(15)
    expect(vectors.objToUrl.length).toBeGreaterThanOrEqual(13)
    expect(vectors.urlToObj.filter((vector) => vector.url.includes('preset1(a:12/'))).toHaveLength(
      3,
    )
  })

  it.each(vectors.urlToObj.map((vector) => [vector.note, vector] as const))(
    'urlToObj: %s',
    (_note, vector) => {
      const read = () => urlToObj(vector.url, { isCustomDomain: vector.isCustomDomain })
      if (vector.throws !== undefined) {
        expect(read).toThrowError(errorClass(vector.throws))
        return
      }
      const ours = read() as unknown as Record<string, unknown>
      for (const [key, value] of Object.entries(vector.expected ?? {})) {
        expect(ours[key], key).toEqual(value)
      }
      // What was read writes back as a URL that reads the same operations.
      const again = urlToObj(objToUrl(read()), { isCustomDomain: vector.isCustomDomain })
      expect(again.transformations).toEqual(ours.transformations)
    },
  )

  it.each(vectors.objToUrl.map((vector) => [vector.note, vector] as const))(
    'objToUrl: %s',
    (_note, vector) => {
      const write = () => objToUrl(vector.obj as unknown as UrlObjectInput)
      if (vector.throws !== undefined) expect(write).toThrowError(errorClass(vector.throws))
      else expect(write()).toBe(vector.expected)
    },
  )
})
