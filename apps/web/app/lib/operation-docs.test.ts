import { CATALOGUE, parsePattern } from '@tessera/url'
import { describe, expect, it } from 'vitest'
import {
  allOperationDocs,
  exampleUrl,
  operationAtDocPath,
  paramDoc,
  playgroundLink,
} from './operation-docs.ts'

describe('operation documentation', () => {
  it('gives every operation of the catalogue its own address', () => {
    const docs = allOperationDocs()
    const count = CATALOGUE.plugins.reduce((sum, plugin) => sum + plugin.operations.length, 0)
    expect(docs).toHaveLength(count)
    expect(new Set(docs.map((doc) => doc.docPath)).size).toBe(count)
    for (const doc of docs)
      expect(doc.docPath).toMatch(/^\/transformations\/(basic|ml)\/[a-z0-9-]+$/)
  })

  it('answers the operation link targets of the marketing pages (SPEC §2.7)', () => {
    expect(operationAtDocPath('/transformations/ml/erase-bg')?.key).toBe('erase.bg')
    expect(operationAtDocPath('/transformations/ml/intelligent-crop')?.key).toBe('ic.crop')
    expect(operationAtDocPath('/transformations/ml/watermark-remover')?.key).toBe('wm.remove')
    expect(operationAtDocPath('/transformations/basic/merge/')?.key).toBe('t.merge')
    expect(operationAtDocPath('/transformations/basic/to-format')?.key).toBe('t.toFormat')
    expect(operationAtDocPath('/transformations/ml/nothing')).toBeUndefined()
  })

  it('has an example that passes the catalogue checks for every operation', () => {
    for (const doc of allOperationDocs()) {
      const { value, issues } = parsePattern(doc.pattern)
      expect(issues, doc.pattern).toEqual([])
      expect(value, doc.pattern).toHaveLength(1)
    }
  })

  it('gives the QR code generator a text to encode (the engine refuses an empty one)', () => {
    const qr = allOperationDocs().find((doc) => doc.key === 'qr.generate')
    expect(qr?.pattern).toMatch(/^qr\.generate\(i:[^,)]+/)
  })

  it('builds the example URL on the delivery base and links it to the playground', () => {
    const resize = CATALOGUE.getOperation('t', 'resize')
    if (resize === undefined) throw new Error('no t.resize')
    const url = exampleUrl(resize, 'https://cdn.example.com/')
    expect(url).toBe('https://cdn.example.com/v2/demo/t.resize(w:300,h:200)/samples/chelsea.png')
    expect(playgroundLink(url)).toBe(`/playground?url=${encodeURIComponent(url)}`)
  })

  it('describes ranges and enum values in words', () => {
    const resize = CATALOGUE.getOperation('t', 'resize')
    const width = resize?.params.find((param) => param.id === 'w')
    const fit = resize?.params.find((param) => param.id === 'f')
    if (width === undefined || fit === undefined) throw new Error('no w or f')
    expect(paramDoc(width)).toMatchObject({ range: '0 to 12000', default: '0', required: false })
    expect(paramDoc(fit).enum).toEqual(['cover', 'contain', 'fill', 'inside', 'outside'])
  })
})
