// Visitor uploads: a visitor of the playground or an AI tool page may upload an image to try the
// operations on. It goes into a folder of its own in the demo organisation
// (`visitor-uploads/{random}/{name}`, a path nobody can guess or list: the demo has no members),
// passes every check of a direct upload (size, type, pixels, SVG safety; images and videos), counts
// against `ANON_UPLOADS_PER_DAY` of the client address and `ANON_UPLOADS_MAX_BYTES` of all
// visitors (both taken before the body is read), and is deleted with its derived images
// by housekeeping once it is 24 hours old.
import { randomUUID } from 'node:crypto'
import type { Context } from 'hono'
import type { Assets } from '../assets/upload.ts'
import type { AppContext } from '../context.ts'
import { DEMO_CLOUD_NAME } from '../demo/seed.ts'
import { HttpError } from '../http/errors.ts'
import { clientAddress } from '../http/request.ts'
import { DAY_MS, VISITOR_UPLOAD_BYTES_KEY, type VisitorAllowance } from './allowance.ts'
import { CAPTCHA_HEADER, type CaptchaGuard } from './captcha.ts'

/** The demo folder visitor uploads go to. */
export const VISITOR_UPLOADS_FOLDER = 'visitor-uploads'
/** How long a visitor upload is kept. */
export const VISITOR_UPLOAD_TTL_MS = DAY_MS
/** Files one housekeeping pass deletes at most (the next pass takes the rest). */
export const EXPIRY_BATCH = 500

export interface VisitorUploadAnswer {
  file: { path: string; url: string; width: number; height: number; format: string; size: number }
  expiresAt: string
  remaining: { uploads: number; aiRuns: number }
}

export type VisitorUploads = ReturnType<typeof createVisitorUploads>

export function createVisitorUploads(
  app: AppContext,
  {
    assets,
    allowance,
    captcha,
  }: { assets: Assets; allowance: VisitorAllowance; captcha: CaptchaGuard },
) {
  /**
   * Takes the address's upload slot and the bytes the body may hold atomically, before the body
   * is read (Node reads and drops what a refused client still sends); a refused upload gives
   * both back, a stored one keeps its slot and the bytes it stored.
   */
  async function upload(c: Context): Promise<VisitorUploadAnswer> {
    const address = clientAddress(c)
    await captcha.verify(c.req.header(CAPTCHA_HEADER), address)
    const demo = await app.lookups.organisationByCloudName(DEMO_CLOUD_NAME)
    if (demo === undefined) {
      throw new HttpError(404, 'not_available', 'This server has no demo organisation to upload to')
    }
    // The body cannot be longer than it says (HTTP framing); without a length, the largest upload.
    const declared = Number(c.req.header('content-length'))
    const bytes =
      Number.isSafeInteger(declared) && declared >= 0
        ? Math.min(declared, app.config.uploadMaxBytes)
        : app.config.uploadMaxBytes
    const use = await allowance.takeUpload(address, bytes)
    const folder = `${VISITOR_UPLOADS_FOLDER}/${randomUUID()}`
    let record: Awaited<ReturnType<typeof assets.receiveFile>>
    try {
      // Images and PDFs only (no text, no raw files), whatever the demo allows; the folder is
      // chosen here, never by the visitor.
      record = await assets.receiveFile(
        c,
        { ...demo, allowRawFiles: false },
        () => ({ path: folder, name: undefined, overwrite: false }),
        { text: false },
      )
    } catch (error) {
      await use.release()
      throw error
    }
    await use.reweigh(VISITOR_UPLOAD_BYTES_KEY, record.size)
    return {
      file: {
        path: record.fullPath,
        url: record.url,
        width: record.width ?? 0,
        height: record.height ?? 0,
        format: record.format,
        size: record.size,
      },
      expiresAt: new Date(Date.parse(record.createdAt) + VISITOR_UPLOAD_TTL_MS).toISOString(),
      remaining: {
        uploads: await allowance.remaining('uploads', address),
        aiRuns: await allowance.remaining('ai', address),
      },
    }
  }

  return { upload }
}

/**
 * Deletes visitor uploads older than 24 hours, with their derived images and stored objects (a
 * housekeeping task). Answers how many files went.
 */
export async function expireVisitorUploads(
  app: Pick<AppContext, 'repo' | 'storage' | 'lookups' | 'logger'>,
  now = Date.now(),
): Promise<number> {
  const demo = await app.repo.findOrganisationByCloudName(DEMO_CLOUD_NAME)
  if (demo === undefined) return 0
  const removed = await app.repo.deleteFilesUnderBefore(
    demo.id,
    VISITOR_UPLOADS_FOLDER,
    new Date(now - VISITOR_UPLOAD_TTL_MS),
    EXPIRY_BATCH,
  )
  for (const file of removed.files) app.lookups.forgetFile(demo.id, file.path)
  const results = await Promise.allSettled(
    removed.storageKeys.map((key) => app.storage.delete(key)),
  )
  const failed = results.filter((result) => result.status === 'rejected').length
  if (failed > 0) {
    app.logger.warn({ failed }, 'some expired visitor uploads could not be removed from storage')
  }
  return removed.files.length
}
