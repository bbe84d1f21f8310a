import { Readable } from 'node:stream'
import type { ListObjectsV2CommandOutput, S3Client, S3ClientConfig } from '@aws-sdk/client-s3'
import { type Intake, intake, isBytes, putFailure, tooLarge } from './body.ts'
import { errorCode, StorageError } from './errors.ts'
import { assertValidKey, assertValidPrefix, isValidKey } from './keys.ts'
import type { ByteRange, PutData, PutOptions, Storage, StoredObject } from './types.ts'

type Sdk = typeof import('@aws-sdk/client-s3')

/** Region used when none is configured; S3-compatible stores mostly ignore it. */
export const DEFAULT_S3_REGION = 'us-east-1'

/** Options of {@link createS3Storage}. */
export interface S3StorageOptions {
  bucket: string
  /** Default `us-east-1`. */
  region?: string
  /** For S3-compatible stores (MinIO, R2, …): `https://host:port`. */
  endpoint?: string
  /** Both or neither; without them the SDK's default chain (env, profile, role) applies. */
  accessKeyId?: string
  secretAccessKey?: string
  /** `bucket` in the path rather than the host name; most S3-compatible stores need it. */
  forcePathStyle?: boolean
  /** Folder in the bucket under which every key lives, e.g. `tessera` → `tessera/<key>`. */
  prefix?: string
}

interface SdkErrorShape {
  name?: unknown
  $metadata?: { httpStatusCode?: unknown }
}

function httpStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const status = (error as SdkErrorShape).$metadata?.httpStatusCode
  return typeof status === 'number' ? status : undefined
}

function errorName(error: unknown): string {
  const code = errorCode(error)
  if (code !== undefined) return code
  const name = typeof error === 'object' && error !== null ? (error as SdkErrorShape).name : ''
  return typeof name === 'string' && name !== '' ? name : 'error'
}

function isNotFound(error: unknown): boolean {
  const name = errorName(error)
  if (name === 'NoSuchBucket') return false
  return name === 'NoSuchKey' || name === 'NotFound' || httpStatus(error) === 404
}

/**
 * Maps an SDK error to a StorageError. The message names only the S3 error code and HTTP status:
 * SDK messages and the error's fields can echo request details, so they stay in `cause`.
 */
function s3Error(action: string, key: string | undefined, error: unknown): StorageError {
  if (error instanceof StorageError) return error
  const name = errorName(error)
  const status = httpStatus(error)
  // No HTTP answer (refused, timed out, DNS), a server fault, refused credentials or a missing
  // bucket: the store as configured cannot be used, whatever the key.
  const unreachable =
    status === undefined ||
    status >= 500 ||
    status === 401 ||
    status === 403 ||
    name === 'NoSuchBucket'
  const detail = status === undefined ? name : `${name}, HTTP ${status}`
  return new StorageError(
    unreachable ? 'not_reachable' : 'io_error',
    `S3 ${action} failed (${detail})`,
    {
      key,
      cause: error,
    },
  )
}

function normalisePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return ''
  const trimmed = prefix.replace(/^\/+/, '').replace(/\/+$/, '')
  assertValidKey(trimmed)
  return `${trimmed}/`
}

/** Total object size from `Content-Range: bytes 0-9/1234`. */
function totalFromContentRange(header: string | undefined): number | undefined {
  const match = header === undefined ? null : /\/(\d+)\s*$/.exec(header)
  return match?.[1] === undefined ? undefined : Number(match[1])
}

/**
 * Storage in an S3 bucket or an S3-compatible store (AWS SDK v3). A PutObject is atomic by
 * nature: readers see the old object or the new one.
 *
 * Streams given to `put` are read into memory (up to `maxBytes`) and sent with one PutObject:
 * `@aws-sdk/lib-storage` (multipart upload) is not installed. Pass `maxBytes` for streams from
 * users; one PutObject takes at most 5 GB.
 */
export function createS3Storage(options: S3StorageOptions): Storage {
  if (typeof options.bucket !== 'string' || options.bucket === '') {
    throw new TypeError('S3 storage needs a bucket name')
  }
  if ((options.accessKeyId === undefined) !== (options.secretAccessKey === undefined)) {
    throw new TypeError('S3 storage needs accessKeyId and secretAccessKey together, or neither')
  }
  const bucket = options.bucket
  const keyPrefix = normalisePrefix(options.prefix)
  const config: S3ClientConfig = {
    region: options.region ?? DEFAULT_S3_REGION,
    forcePathStyle: options.forcePathStyle ?? false,
  }
  if (options.endpoint !== undefined) {
    config.endpoint = options.endpoint
    // Many S3-compatible stores reject the CRC checksums newer SDKs add to every request.
    config.requestChecksumCalculation = 'WHEN_REQUIRED'
    config.responseChecksumValidation = 'WHEN_REQUIRED'
  }
  if (options.accessKeyId !== undefined && options.secretAccessKey !== undefined) {
    config.credentials = {
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
    }
  }
  // The AWS SDK is ~4.6 MB of V8's heap once imported, which every full collection walks: it is
  // imported with an S3 store's first request, not by every server that imports storage. A
  // failed import or client is tried again by the next request.
  let connecting: Promise<{ sdk: Sdk; client: S3Client }> | undefined
  function connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    connecting ??= import('@aws-sdk/client-s3').then(
      (sdk) => ({ sdk, client: new sdk.S3Client(config) }),
      (error: unknown) => {
        connecting = undefined
        throw error
      },
    )
    return connecting
  }

  async function collect(state: Intake): Promise<Buffer> {
    const chunks: Uint8Array[] = []
    for await (const chunk of state.chunks) chunks.push(chunk)
    return Buffer.concat(chunks, state.size)
  }

  async function getObject(key: string, range?: ByteRange) {
    assertValidKey(key)
    try {
      const { sdk, client } = await connect()
      return await client.send(
        new sdk.GetObjectCommand({
          Bucket: bucket,
          Key: keyPrefix + key,
          ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }),
        }),
      )
    } catch (error) {
      if (isNotFound(error)) return undefined
      throw s3Error('read', key, error)
    }
  }

  return {
    kind: 's3',

    async put(key: string, data: PutData, options: PutOptions = {}): Promise<{ size: number }> {
      const { maxBytes, contentType } = options
      const state = isBytes(data) ? undefined : intake(data, key, maxBytes)
      try {
        assertValidKey(key)
        let body: Uint8Array
        if (state === undefined) {
          body = data as Uint8Array
          if (maxBytes !== undefined && body.byteLength > maxBytes) throw tooLarge(key, maxBytes)
        } else {
          body = await collect(state)
        }
        const { sdk, client } = await connect()
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: keyPrefix + key,
            Body: body,
            ContentLength: body.byteLength,
            ...(contentType === undefined ? {} : { ContentType: contentType }),
          }),
        )
        return { size: body.byteLength }
      } catch (error) {
        throw putFailure(error, state, (cause) => s3Error('write', key, cause))
      }
    },

    async get(key: string): Promise<Buffer | undefined> {
      const output = await getObject(key)
      if (output === undefined) return undefined
      try {
        const bytes = (await output.Body?.transformToByteArray()) ?? new Uint8Array()
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      } catch (error) {
        throw s3Error('read', key, error)
      }
    },

    async stream(key: string, range?: ByteRange) {
      const output = await getObject(key, range)
      if (output === undefined) return undefined
      const body = output.Body
      const size = totalFromContentRange(output.ContentRange) ?? output.ContentLength
      if (!(body instanceof Readable) || size === undefined) {
        if (body instanceof Readable) body.destroy()
        throw new StorageError('io_error', 'S3 read failed (answer without a body or length)', {
          key,
        })
      }
      // As in local storage: a read error nobody heard yet must not end the process.
      body.on('error', () => undefined)
      return { body, size }
    },

    async stat(key: string): Promise<StoredObject | undefined> {
      assertValidKey(key)
      try {
        const { sdk, client } = await connect()
        const output = await client.send(
          new sdk.HeadObjectCommand({ Bucket: bucket, Key: keyPrefix + key }),
        )
        return {
          size: output.ContentLength ?? 0,
          modified: output.LastModified ?? new Date(0),
          ...(output.ETag === undefined ? {} : { etag: output.ETag }),
        }
      } catch (error) {
        if (isNotFound(error)) return undefined
        throw s3Error('stat', key, error)
      }
    },

    async delete(key: string): Promise<void> {
      assertValidKey(key)
      try {
        const { sdk, client } = await connect()
        await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: keyPrefix + key }))
      } catch (error) {
        if (!isNotFound(error)) throw s3Error('delete', key, error)
      }
    },

    async *list(prefix: string): AsyncIterable<string> {
      assertValidPrefix(prefix)
      let token: string | undefined
      do {
        let page: ListObjectsV2CommandOutput
        try {
          const { sdk, client } = await connect()
          page = await client.send(
            new sdk.ListObjectsV2Command({
              Bucket: bucket,
              Prefix: keyPrefix + prefix,
              ...(token === undefined ? {} : { ContinuationToken: token }),
            }),
          )
        } catch (error) {
          throw s3Error('list', prefix, error)
        }
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(keyPrefix.length)
          // Skips what other tools may leave in a bucket, such as `folder/` markers.
          if (key !== undefined && isValidKey(key)) yield key
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined
      } while (token !== undefined)
    },

    async removeStaleTemporaries(): Promise<number> {
      // A put is one request (or a multipart upload the SDK aborts when it fails): no temporaries.
      return 0
    },

    async check(): Promise<void> {
      try {
        const { sdk, client } = await connect()
        await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }))
      } catch (error) {
        const mapped = s3Error('bucket check', undefined, error)
        throw new StorageError('not_reachable', mapped.message, { cause: error })
      }
    },
  }
}
