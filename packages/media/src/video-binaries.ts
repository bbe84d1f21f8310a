// Where ffmpeg and ffprobe are: static builds shipped inside npm packages
// (`@ffmpeg-installer/linux-x64`, `@ffprobe-installer/linux-x64`), found by package resolution so
// `npm ci` is all a machine needs (no system ffmpeg, no download at install time).
import { accessSync, constants } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

function binary(pkg: string, name: string): string {
  const path = join(dirname(require.resolve(`${pkg}/package.json`)), name)
  // The packages' postinstall makes them executable; a copy that lost the bit fails clearly.
  accessSync(path, constants.X_OK)
  return path
}

let found: { ffmpeg: string; ffprobe: string } | undefined

/** The paths of the ffmpeg and ffprobe binaries (resolved once). */
export function videoBinaries(): { ffmpeg: string; ffprobe: string } {
  found ??= {
    ffmpeg: binary('@ffmpeg-installer/linux-x64', 'ffmpeg'),
    ffprobe: binary('@ffprobe-installer/linux-x64', 'ffprobe'),
  }
  return found
}
