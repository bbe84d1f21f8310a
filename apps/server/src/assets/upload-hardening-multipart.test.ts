// Hardening of the upload routes (issue 9), the multipart parser: bodies cut short, thousands of
// truncated and mutated bodies (a seeded fuzz), and more fields, files or parts than allowed, each
// answered, with the server still serving and nothing left behind. (Temporary files, the download
// proxy and file types: upload-hardening-files.test.ts.)
import { Agent } from 'node:http'
import { expect, it, vi } from 'vitest'
import { multipart } from '../test-client.ts'
import { describeEachDatabase } from '../test-suite.ts'
import { MULTIPART_LIMITS } from './multipart.ts'
import {
  BOUNDARY,
  random,
  SETTLE,
  send,
  temporaries,
  useUploadHardeningSuite,
} from './upload-hardening-suite.ts'

describeEachDatabase('server', 'upload hardening on %s', useUploadHardeningSuite, (suite, kind) => {
  const { direct, auth, formHeaders, storedState } = suite

  it('answers a body that stops before its closing boundary with 400 and keeps serving', async () => {
    const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nabc`
    const answer = await send(direct(), Buffer.from(body), formHeaders())
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'invalid_multipart' })
    // The same cut inside a part that is not the file.
    const other = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="other"; filename="b.jpg"\r\n\r\nabc`
    expect((await send(direct(), Buffer.from(other), formHeaders())).status).toBe(400)
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    expect(await temporaries(suite.storageRoot)).toEqual([])
    const state = await storedState()
    expect(state.onDisk).toEqual(state.keys)
  })

  it('answers every one of thousands of truncated and mutated multipart bodies, keeps serving and leaves nothing behind', async () => {
    const rng = random(9)
    const bases = [
      multipart(BOUNDARY, [{ name: 'file', fileName: 'fuzz.png', data: suite.tiny }]),
      multipart(BOUNDARY, [
        { name: 'path', data: 'fuzz/a' },
        { name: 'name', data: 'one' },
        { name: 'file', fileName: 'one.png', data: suite.tiny },
      ]),
      multipart(BOUNDARY, [
        { name: 'file', fileName: 'two.png', data: suite.tiny },
        { name: 'overwrite', data: 'true' },
        { name: 'name', data: 'two' },
      ]),
    ]
    const mutate = (base: Buffer): Buffer => {
      const at = rng.int(base.length + 1)
      switch (rng.int(6)) {
        case 0: // truncated
          return base.subarray(0, at)
        case 1: {
          // a byte changed
          const copy = Buffer.from(base)
          if (at < copy.length) copy[at] = rng.int(256)
          return copy
        }
        case 2: // a range removed
          return Buffer.concat([base.subarray(0, at), base.subarray(at + 1 + rng.int(40))])
        case 3: // a range repeated
          return Buffer.concat([base.subarray(0, at + rng.int(60)), base.subarray(at)])
        case 4: {
          // bytes inserted: random ones, or pieces of the multipart syntax
          const pieces = ['\r\n', `--${BOUNDARY}`, '"', ';', 'filename="x.png"', '\r\n\r\n', '--']
          const insert =
            rng.next() < 0.5
              ? Buffer.from(pieces[rng.int(pieces.length)] as string)
              : Buffer.from(Array.from({ length: 1 + rng.int(16) }, () => rng.int(256)))
          return Buffer.concat([base.subarray(0, at), insert, base.subarray(at)])
        }
        default: // cut, then a byte changed
          return mutate(base.subarray(0, at))
      }
    }
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    const statuses = new Map<number, number>()
    const failures: string[] = []
    let next = 0
    // 10,000 on PGlite; PostgreSQL only records the accepted uploads differently, so a fifth of
    // that keeps the suite inside its budget on a 2-core machine. FUZZ_TOTAL overrides both.
    const total = Number(process.env.FUZZ_TOTAL ?? (kind === 'pglite' ? 10_000 : 2_000))
    const worker = async () => {
      while (next < total) {
        const index = next++
        const body = mutate(bases[index % bases.length] as Buffer)
        try {
          const answer = await send(direct(), body, formHeaders(), agent)
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          if (answer.status < 200 || answer.status >= 500) {
            failures.push(`#${index}: ${answer.status} ${answer.body.slice(0, 200)}`)
          }
        } catch (error) {
          failures.push(
            `#${index}: no answer (${(error as Error).message}) ${JSON.stringify(body.toString('latin1'))}`,
          )
        }
      }
    }
    await Promise.all(Array.from({ length: 8 }, worker))
    agent.destroy()
    expect(failures.slice(0, 10)).toEqual([])
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(total)
    // Both good and bad bodies were among them.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0)
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200)
    const upload = await fetch(direct(), {
      method: 'POST',
      headers: auth(),
      body: (() => {
        const form = new FormData()
        form.set('file', new Blob([suite.tiny]), 'after-fuzz.png')
        return form
      })(),
    })
    expect(upload.status).toBe(200)
    await vi.waitFor(async () => expect(await temporaries(suite.storageRoot)).toEqual([]), SETTLE)
    const state = await storedState()
    expect(state.onDisk).toEqual(state.keys)
  }, 600_000)

  it('refuses a body with more fields, files or parts than allowed with a clear 400', async () => {
    const fields = Array.from({ length: MULTIPART_LIMITS.fields + 1 }, (_, i) => ({
      name: `f${i}`,
      data: 'x',
    }))
    const tooMany = await send(
      direct(),
      multipart(BOUNDARY, [...fields, { name: 'file', fileName: 'many.png', data: suite.tiny }]),
      formHeaders(),
    )
    expect(tooMany.status).toBe(400)
    expect(JSON.parse(tooMany.body)).toMatchObject({ code: 'too_many_fields' })
    const twoFiles = await send(
      direct(),
      multipart(BOUNDARY, [
        { name: 'file', fileName: 'one.png', data: suite.tiny },
        { name: 'file', fileName: 'two.png', data: suite.tiny },
      ]),
      formHeaders(),
    )
    expect(twoFiles.status).toBe(400)
    expect(JSON.parse(twoFiles.body)).toMatchObject({ code: 'too_many_files' })
    const longField = await send(
      direct(),
      multipart(BOUNDARY, [
        { name: 'path', data: 'a'.repeat(5000) },
        { name: 'file', fileName: 'long.png', data: suite.tiny },
      ]),
      formHeaders(),
    )
    expect(longField.status).toBe(400)
    expect(JSON.parse(longField.body)).toMatchObject({ code: 'field_too_long' })
    expect(await temporaries(suite.storageRoot)).toEqual([])
    const state = await storedState()
    expect(state.onDisk).toEqual(state.keys)
  })
})
