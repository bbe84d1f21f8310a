import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)
const found = new Map<string, string>()

function isPackageRoot(dir: string, name: string): boolean {
  const file = path.join(dir, 'package.json')
  if (!existsSync(file)) return false
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === name
  } catch {
    return false
  }
}

/**
 * The folder of an installed package, found by Node's own resolution from this package (never
 * from the working directory), so the models load wherever the process was started.
 */
export function packageDir(name: string): string {
  const known = found.get(name)
  if (known !== undefined) return known
  // Walk up from the entry file to the package.json that names the package (some packages keep
  // other package.json files in their build folders).
  let dir = path.dirname(require.resolve(name))
  while (!isPackageRoot(dir, name)) {
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error(`Cannot find the folder of ${name}`)
    dir = parent
  }
  found.set(name, dir)
  return dir
}

/** A file inside an installed package. */
export function packageFile(name: string, ...parts: string[]): string {
  return path.join(packageDir(name), ...parts)
}
