// The library's folder tree (WAI-ARIA tree): folders load as they are opened; arrow keys move,
// Right opens, Left closes or goes to the parent, Enter shows the folder. Folders accept drops.
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react'
import type { ConsoleApi, FolderItem } from '../../lib/console-api.ts'

type Children = FolderItem[] | 'loading' | 'error'

interface Row {
  path: string
  name: string
  depth: number
}

export const DRAG_TYPE = 'application/x-tessera-items'

export function FolderTree({
  api,
  current,
  version,
  onOpen,
  onDropItems,
}: {
  api: ConsoleApi
  current: string
  /** Changes when folders were made, renamed, moved or deleted: the tree loads again. */
  version: number
  onOpen: (path: string) => void
  onDropItems: (keys: string[], path: string) => void
}) {
  const [children, setChildren] = useState<Map<string, Children>>(new Map())
  const [expanded, setExpanded] = useState<Set<string>>(new Set(['']))
  const [focused, setFocused] = useState(current)
  const [dropTarget, setDropTarget] = useState<string | null>(null)
  const refs = useRef(new Map<string, HTMLDivElement>())

  const load = useCallback(
    async (path: string) => {
      setChildren((map) => new Map(map).set(path, 'loading'))
      try {
        const answer = await api.listFiles({ path, pageNo: 1, pageSize: 100 })
        const folders = answer.items.filter((item): item is FolderItem => item.type === 'folder')
        setChildren((map) => new Map(map).set(path, folders))
      } catch {
        setChildren((map) => new Map(map).set(path, 'error'))
      }
    },
    [api],
  )

  // Everything loaded is loaded again after a change; the current folder's ancestors open.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload signal
  useEffect(() => {
    const parts = current.split('/').filter((part) => part !== '')
    const ancestors = ['', ...parts.map((_, index) => parts.slice(0, index + 1).join('/'))]
    const open = new Set([...expanded, ...ancestors.slice(0, -1)])
    setExpanded(open)
    for (const path of open) void load(path)
  }, [version, current, load])

  const rows: Row[] = []
  const walk = (path: string, depth: number) => {
    const list = children.get(path)
    if (!Array.isArray(list)) return
    for (const folder of list) {
      rows.push({ path: folder.fullPath, name: folder.name, depth })
      if (expanded.has(folder.fullPath)) walk(folder.fullPath, depth + 1)
    }
  }
  rows.push({ path: '', name: 'All files', depth: 0 })
  if (expanded.has('')) walk('', 1)

  const focus = (path: string) => {
    setFocused(path)
    refs.current.get(path)?.focus()
  }
  const toggle = (path: string, open: boolean) => {
    setExpanded((set) => {
      const next = new Set(set)
      if (open) next.add(path)
      else next.delete(path)
      return next
    })
    if (open && !Array.isArray(children.get(path))) void load(path)
  }

  const onKeyDown = (event: KeyboardEvent, row: Row, index: number) => {
    const isOpen = expanded.has(row.path)
    switch (event.key) {
      case 'ArrowDown':
        if (index < rows.length - 1) focus(rows[index + 1]?.path ?? row.path)
        break
      case 'ArrowUp':
        if (index > 0) focus(rows[index - 1]?.path ?? row.path)
        break
      case 'ArrowRight':
        if (!isOpen) toggle(row.path, true)
        else {
          const child = rows[index + 1]
          if (child !== undefined && child.depth > row.depth) focus(child.path)
        }
        break
      case 'ArrowLeft':
        if (isOpen && row.path !== '') toggle(row.path, false)
        else if (row.path !== '')
          focus(row.path.includes('/') ? row.path.replace(/\/[^/]*$/, '') : '')
        break
      case 'Home':
        focus('')
        break
      case 'End':
        focus(rows[rows.length - 1]?.path ?? '')
        break
      case 'Enter':
      case ' ':
        onOpen(row.path)
        break
      default:
        return
    }
    event.preventDefault()
  }

  return (
    <div className="folder-tree" role="tree" aria-label="Folders" data-testid="folder-tree">
      {rows.map((row, index) => {
        const list = children.get(row.path)
        const isOpen = expanded.has(row.path)
        return (
          <div
            key={row.path || '/'}
            ref={(element) => {
              if (element === null) refs.current.delete(row.path)
              else refs.current.set(row.path, element)
            }}
            role="treeitem"
            aria-level={row.depth + 1}
            aria-expanded={Array.isArray(list) && list.length === 0 ? undefined : isOpen}
            aria-selected={row.path === current}
            tabIndex={row.path === focused ? 0 : -1}
            className={[
              row.path === current ? 'is-current' : '',
              dropTarget === row.path ? 'is-drop-target' : '',
            ].join(' ')}
            style={{ paddingLeft: `${row.depth * 14 + 8}px` }}
            data-path={row.path}
            onKeyDown={(event) => onKeyDown(event, row, index)}
            onClick={() => {
              setFocused(row.path)
              onOpen(row.path)
            }}
            onDragOver={(event) => {
              if (!event.dataTransfer.types.includes(DRAG_TYPE)) return
              event.preventDefault()
              setDropTarget(row.path)
            }}
            onDragLeave={() => setDropTarget(null)}
            onDrop={(event) => {
              setDropTarget(null)
              const raw = event.dataTransfer.getData(DRAG_TYPE)
              if (raw === '') return
              event.preventDefault()
              onDropItems(JSON.parse(raw) as string[], row.path)
            }}
          >
            <button
              type="button"
              tabIndex={-1}
              className="tree-toggle"
              aria-hidden="true"
              onClick={(event) => {
                event.stopPropagation()
                toggle(row.path, !isOpen)
              }}
            >
              {Array.isArray(list) && list.length === 0 ? '' : isOpen ? '▾' : '▸'}
            </button>
            <span className="tree-name">{row.name}</span>
            {list === 'loading' && isOpen ? (
              <span className="visually-hidden"> loading</span>
            ) : null}
            {list === 'error' && isOpen ? (
              <span className="tree-error"> (could not load)</span>
            ) : null}
          </div>
        )
      })}
    </div>
  )
}
