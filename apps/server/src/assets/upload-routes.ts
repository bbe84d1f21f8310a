// The upload calls (multipart direct upload, upload by URL) and the download proxy, mounted
// under `ASSETS`/upload and `ASSETS`/proxy. The work is in `upload.ts`.
import { Hono } from 'hono'
import type { AppContext, AppEnv } from '../context.ts'
import { jsonLimit } from '../http/json-body.ts'
import type { Assets } from './upload.ts'

/** `POST /direct` (multipart) and `POST /url` (JSON), relative to `ASSETS`/upload. */
export function uploadRoutes(_app: AppContext, { assets }: { assets: Assets }): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.post('/direct', (c) => assets.uploadDirect(c))
  router.post('/url', jsonLimit, (c) => assets.uploadFromUrl(c))
  return router
}

/** `GET /download?url=…`, relative to `ASSETS`/proxy. */
export function proxyRoutes(_app: AppContext, { assets }: { assets: Assets }): Hono<AppEnv> {
  const router = new Hono<AppEnv>()
  router.get('/download', (c) => assets.proxyDownload(c))
  return router
}
