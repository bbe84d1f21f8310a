// The media library's state (/console/editor): what the address says (folder, search, sort,
// view, page) and what the page holds between calls (the selection, the open file, the action
// asked for, the notice and error, the drop target). Pure, so every transition is unit-tested.
import type { FileItem, LibraryItem } from '../../../lib/console-api.ts'
import { normalisePath } from '../../../lib/console-urls.ts'

/** Items a page of the library asks the files API for. */
export const PAGE_SIZE = 50

/** The files API's orders (its `sort` parameter); the whole folder is sorted, not a page. */
export type Sort = 'name' | '-name' | '-updated' | '-size' | 'type'

export const SORTS: [Sort, string][] = [
  ['name', 'Name, A to Z'],
  ['-name', 'Name, Z to A'],
  ['-updated', 'Recently updated'],
  ['-size', 'Largest first'],
  ['type', 'Type'],
]

/** A stable key per item: files by id, folders by path. */
export const keyOf = (item: LibraryItem) =>
  item.type === 'file' ? `file:${item._id}` : `folder:${item.fullPath}`

/** What the address says the library shows. */
export interface LibraryView {
  path: string
  q: string
  pageNo: number
  view: 'grid' | 'list'
  sort: Sort
  /** A tag every file shown carries (the tag filter); '' for none. */
  tag: string
}

/** Reads the library's address; anything unknown falls back to the first page by name. */
export function readLibraryParams(params: URLSearchParams): LibraryView {
  return {
    path: normalisePath(params.get('path') ?? ''),
    q: params.get('q') ?? '',
    pageNo: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
    view: params.get('view') === 'list' ? 'list' : 'grid',
    sort: SORTS.find(([value]) => value === params.get('sort'))?.[0] ?? 'name',
    tag: (params.get('tag') ?? '').trim(),
  }
}

/** Whether the library searches (name or tag given) rather than lists one folder level. */
export const isSearching = (view: Pick<LibraryView, 'q' | 'tag'>) =>
  view.q.trim() !== '' || view.tag !== ''

/** Tags typed as a comma-separated list: trimmed, blanks dropped, each once, in order. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    ),
  ]
}

/** A metadata object typed as JSON text; an error message when it is not a JSON object. */
export function parseMetadata(text: string): Record<string, unknown> | string {
  if (text.trim() === '') return {}
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>
    }
  } catch {
    // Reported below.
  }
  return 'Metadata must be a JSON object, such as {"sku": "A1"}'
}

/** The address with `changes` made; an undefined or empty value removes the parameter. */
export function withParams(
  params: URLSearchParams,
  changes: Record<string, string | undefined>,
): URLSearchParams {
  const merged = new URLSearchParams(params)
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') merged.delete(key)
    else merged.set(key, value)
  }
  return merged
}

/** How many pages a folder of `itemTotal` entries fills (at least one). */
export function pageCountOf(itemTotal: number | undefined): number {
  return itemTotal === undefined ? 1 : Math.max(1, Math.ceil(itemTotal / PAGE_SIZE))
}

/** An action that asks first, in the dialog. */
export type Pending =
  | { kind: 'new-folder' }
  | { kind: 'rename'; item: LibraryItem }
  | { kind: 'move'; items: LibraryItem[] }
  | { kind: 'delete'; items: LibraryItem[] }
  /** Adds a tag to the files among `items` (folders carry no tags). */
  | { kind: 'tag'; items: LibraryItem[] }

export interface LibraryState {
  /** Keys (keyOf) of the selected items. */
  selected: ReadonlySet<string>
  /** The file whose panel is open. */
  open: FileItem | null
  pending: Pending | null
  notice: string | null
  actionError: string | null
  /** The folder a drag hovers over. */
  dropTarget: string | null
  /** Bumped when folders change, so the tree loads again. */
  treeVersion: number
}

export const INITIAL_LIBRARY: LibraryState = {
  selected: new Set(),
  open: null,
  pending: null,
  notice: null,
  actionError: null,
  dropTarget: null,
  treeVersion: 0,
}

export type LibraryAction =
  | { type: 'toggle'; key: string }
  | { type: 'clear_selection' }
  | { type: 'open_folder' }
  | { type: 'open_file'; file: FileItem | null }
  /** A file changed elsewhere (moved, renamed): its panel shows the new one if it is open. */
  | { type: 'file_changed'; file: FileItem }
  | { type: 'ask'; pending: Pending | null }
  /** A change was made: the selection goes, the tree reloads if folders changed. */
  | { type: 'changing'; foldersChanged: boolean }
  | { type: 'changed'; notice: string }
  /** Items went away: the open file's panel closes if it was one of them. */
  | { type: 'removed'; keys: string[] }
  | { type: 'failed'; message: string | null }
  | { type: 'drop_target'; folder: string | null }

export function libraryReducer(state: LibraryState, action: LibraryAction): LibraryState {
  switch (action.type) {
    case 'toggle': {
      const selected = new Set(state.selected)
      if (selected.has(action.key)) selected.delete(action.key)
      else selected.add(action.key)
      return { ...state, selected }
    }
    case 'clear_selection':
      return { ...state, selected: new Set() }
    case 'open_folder':
      // Another folder: nothing of this one stays selected or open.
      return { ...state, selected: new Set(), open: null }
    case 'open_file':
      return { ...state, open: action.file }
    case 'file_changed':
      return state.open?._id === action.file._id ? { ...state, open: action.file } : state
    case 'ask':
      return { ...state, pending: action.pending }
    case 'changing':
      return {
        ...state,
        notice: null,
        selected: new Set(),
        treeVersion: action.foldersChanged ? state.treeVersion + 1 : state.treeVersion,
      }
    case 'changed':
      return { ...state, notice: action.notice }
    case 'removed':
      return state.open !== null && action.keys.includes(`file:${state.open._id}`)
        ? { ...state, open: null }
        : state
    case 'failed':
      return { ...state, actionError: action.message }
    case 'drop_target':
      return { ...state, dropTarget: action.folder }
  }
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** The notice after a move. */
export function movedNotice(moved: number, folder: string): string {
  return `Moved ${plural(moved, 'item')} to ${folder === '' ? 'All files' : folder}.`
}

/** The notice after tagging. */
export function taggedNotice(files: number, tag: string): string {
  return `Tagged ${plural(files, 'file')} “${tag}”.`
}

/** The notice after a delete. */
export function deletedNotice(files: number, folders: number): string {
  return `Deleted ${plural(files, 'file')}${folders > 0 ? ` and ${plural(folders, 'folder')}` : ''}.`
}

/** What a delete will take, said before it is confirmed. */
export function deleteCountText(
  fileCount: number,
  folderCounts: { files: number; folders: number; partial: boolean }[],
): string {
  if (folderCounts.length === 0) return `${plural(fileCount, 'file')} will be deleted.`
  const inner = folderCounts.reduce((sum, c) => sum + c.files, 0)
  const innerFolders = folderCounts.reduce((sum, c) => sum + c.folders, 0)
  const partial = folderCounts.some((c) => c.partial)
  return `${plural(folderCounts.length, 'folder')} with ${partial ? 'at least ' : ''}${plural(inner, 'file')} and ${plural(innerFolders, 'sub-folder')} inside${fileCount > 0 ? `, and ${plural(fileCount, 'file')}` : ''} will be deleted, everything inside included.`
}
