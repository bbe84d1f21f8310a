// The parameter form of the selected chain item: one control per operation parameter or preset
// variable, with reset and replace. File parameters list the organisation's files to pick from.
import { CATALOGUE } from '@tessera/url'
import { useEffect, useMemo, useState } from 'react'
import { useConfig, useSession } from '../../lib/app-context.tsx'
import { listFiles, type MemberFile } from '../../lib/playground-api.ts'
import { type FileChoice, ParamControl, variableSpec } from '../param-control.tsx'
import type { ChainItem, Preset } from './playground-state.ts'
import type { PlaygroundOrg } from './source-picker.tsx'

export function ParamEditor({
  item,
  values,
  presets,
  org,
  onSet,
  onReset,
  onResetAll,
  onReplace,
  onDone,
}: {
  item: ChainItem
  values: Record<string, string>
  presets: Preset[]
  org: PlaygroundOrg | undefined
  onSet: (key: string, value: string) => void
  onReset: (key: string) => void
  onResetAll: () => void
  onReplace: () => void
  onDone: () => void
}) {
  const config = useConfig()
  const { client } = useSession()
  const [files, setFiles] = useState<FileChoice[]>([])
  const specs = useMemo(() => {
    if (!item.isPreset) return CATALOGUE.getOperation(item.plugin, item.method)?.params ?? []
    const preset = presets.find((candidate) => candidate.presetName === item.presetName)
    return Object.entries(preset?.params ?? {}).map(([name, variable]) =>
      variableSpec(name, variable),
    )
  }, [item, presets])
  const needsFiles = specs.some((spec) => spec.type === 'file')
  useEffect(() => {
    if (!needsFiles || org === undefined) return
    let live = true
    listFiles(client, config, org.id, '')
      .then(async (top) => {
        // The top level and one level down: enough to pick an overlay from.
        const folders = top.items.filter((entry) => entry.type === 'folder').slice(0, 5)
        const nested = await Promise.all(
          folders.map((folder) =>
            listFiles(client, config, org.id, folder.fullPath).catch(() => ({ items: [] })),
          ),
        )
        const all = [top.items, ...nested.map((answer) => answer.items)].flat()
        if (live) setFiles(fileChoices(all))
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [needsFiles, org, client, config])

  return (
    <section className="pg-panel" aria-labelledby="pg-editor-heading">
      <div className="pg-panel-head">
        <h2 id="pg-editor-heading">Edit {item.displayName}</h2>
        <button type="button" className="button is-ghost is-small" onClick={onDone}>
          Done
        </button>
      </div>
      {specs.length === 0 ? <p className="pg-empty">This step has nothing to set.</p> : null}
      <div className="pg-params">
        {specs.map((spec) => (
          <ParamControl
            key={spec.id}
            spec={spec}
            value={values[spec.id]}
            onChange={(value) => onSet(spec.id, value)}
            onReset={() => onReset(spec.id)}
            files={files}
            filesNote={
              org === undefined
                ? 'visitors give a file id; members pick from their organisation'
                : 'no files found'
            }
          />
        ))}
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button is-secondary is-small"
          onClick={onResetAll}
          disabled={Object.keys(values).length === 0}
        >
          Reset all
        </button>
        <button type="button" className="button is-secondary is-small" onClick={onReplace}>
          Replace
        </button>
      </div>
    </section>
  )
}

function fileChoices(entries: MemberFile[]): FileChoice[] {
  return entries
    .filter((entry) => entry.type !== 'folder' && entry.fileId !== undefined)
    .map((entry) => ({ value: entry.fileId as string, label: entry.fullPath }))
}
