import type { Context } from 'hono'
import { describe, expect, it } from 'vitest'
import { createAssets } from './assets.ts'
import type { AppContext } from './context.ts'
import { HttpError } from './http-error.ts'

// Until accounts exist, uploads are accepted from this machine only. A request from another
// address is refused before anything is read or stored.
function contextFrom(remoteAddress: string): Context {
  return { env: { incoming: { socket: { remoteAddress } } } } as unknown as Context
}

describe('upload access before accounts exist', () => {
  const assets = createAssets({} as AppContext)

  it.each(['203.0.113.9', '192.168.1.20', '::ffff:10.0.0.3', '2001:db8::1'])(
    'refuses an upload from %s with 403',
    async (address) => {
      for (const upload of [assets.uploadDirect, assets.uploadFromUrl]) {
        const error = await upload(contextFrom(address)).catch((caught: unknown) => caught)
        expect(error).toBeInstanceOf(HttpError)
        expect(error).toMatchObject({ status: 403, code: 'forbidden' })
      }
    },
  )
})
