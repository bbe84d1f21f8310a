// A Vite plugin that writes `<file>.br` (brotli quality 11) and `<file>.gz` (gzip level 9) beside
// every compressible file of the client build, so the server answers compressed static files
// without compressing anything at run time (apps/web/src/static.ts).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'
import { MIN_COMPRESS_BYTES } from './compress.ts'

const TEXT = /\.(js|mjs|css|svg|json|txt|xml|html)$/

export function precompress(): Plugin {
  return {
    name: 'tessera-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      // Only the browser's files: the server build is never sent.
      if (this.environment.name !== 'client' || options.dir === undefined) return
      const dir = options.dir
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => TEXT.test(name))
          .map(async (name) => {
            const file = join(dir, name)
            const data = await readFile(file)
            if (data.length < MIN_COMPRESS_BYTES) return
            await writeFile(
              `${file}.br`,
              brotliCompressSync(data, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: 11,
                  [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
            )
            await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }))
          }),
      )
    },
  }
}
