// Stores a JPEG source as a file of an organisation, the way an upload leaves it (the original in
// storage, its row with the engine's probe): the delivery benchmarks' and the profile's set-up.
// Types only from the server, so that a profile of another copy of the server can use it.
import { createHash } from 'node:crypto'
import type { RunningServer } from '@tessera/server'

export interface StoredSource {
  /** The file's path in delivery URLs, and its name. */
  path: string
  name: string
  storageKey: string
}

export async function storeJpegSource(
  context: RunningServer['services']['context'],
  organisationId: string,
  file: StoredSource,
  source: Buffer,
): Promise<void> {
  const { repo, storage, engine } = context
  const probe = await engine.probe(source)
  await storage.put(file.storageKey, source, { contentType: 'image/jpeg' })
  await repo.upsertFile(organisationId, {
    path: file.path,
    name: file.name,
    size: source.length,
    format: probe.format,
    contentType: 'image/jpeg',
    width: probe.width,
    height: probe.height,
    hash: createHash('sha256').update(source).digest('hex'),
    storageKey: file.storageKey,
  })
}
