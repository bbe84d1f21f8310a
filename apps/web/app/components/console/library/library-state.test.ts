import { describe, expect, it } from 'vitest'
import type { FileItem, FolderItem } from '../../../lib/console-api.ts'
import {
  deleteCountText,
  deletedNotice,
  INITIAL_LIBRARY,
  isSearching,
  keyOf,
  type LibraryAction,
  type LibraryState,
  libraryReducer,
  movedNotice,
  pageCountOf,
  parseMetadata,
  parseTags,
  readLibraryParams,
  taggedNotice,
  withParams,
} from './library-state.ts'

const file = (id: string, name = `${id}.png`) =>
  ({ type: 'file', _id: id, name, path: '', fullPath: name }) as FileItem
const folder = (fullPath: string) =>
  ({ type: 'folder', name: fullPath, path: '', fullPath }) as FolderItem

const run = (actions: LibraryAction[], from: LibraryState = INITIAL_LIBRARY) =>
  actions.reduce(libraryReducer, from)

describe('the library address', () => {
  it('reads the folder, search, page, view and sort, falling back on anything unknown', () => {
    expect(
      readLibraryParams(new URLSearchParams('path=/a/b/&q=cat&page=3&view=list&sort=-size')),
    ).toEqual({ path: 'a/b', q: 'cat', pageNo: 3, view: 'list', sort: '-size', tag: '' })
    expect(readLibraryParams(new URLSearchParams('page=-2&view=table&sort=biggest'))).toEqual({
      path: '',
      q: '',
      pageNo: 1,
      view: 'grid',
      sort: 'name',
      tag: '',
    })
  })

  it('sets and removes parameters, keeping the others', () => {
    const next = withParams(new URLSearchParams('path=a&page=4&q=x'), {
      sort: '-size',
      page: undefined,
      q: '',
    })
    expect(next.toString()).toBe('path=a&sort=-size')
  })

  it('counts at least one page', () => {
    expect(pageCountOf(undefined)).toBe(1)
    expect(pageCountOf(0)).toBe(1)
    expect(pageCountOf(50)).toBe(1)
    expect(pageCountOf(51)).toBe(2)
  })
})

describe('the library state', () => {
  it('toggles an item in and out of the selection', () => {
    const once = run([{ type: 'toggle', key: keyOf(file('1')) }])
    expect([...once.selected]).toEqual(['file:1'])
    expect([...run([{ type: 'toggle', key: 'file:1' }], once).selected]).toEqual([])
  })

  it('opening another folder clears the selection and closes the file panel', () => {
    const state = run([
      { type: 'toggle', key: keyOf(folder('a')) },
      { type: 'open_file', file: file('1') },
      { type: 'open_folder' },
    ])
    expect(state.selected.size).toBe(0)
    expect(state.open).toBeNull()
  })

  it('a change clears the notice and selection, and reloads the tree only when folders changed', () => {
    const before = run([
      { type: 'changed', notice: 'old' },
      { type: 'toggle', key: 'file:1' },
    ])
    const files = run([{ type: 'changing', foldersChanged: false }], before)
    expect(files).toMatchObject({ notice: null, treeVersion: 0 })
    expect(files.selected.size).toBe(0)
    const folders = run(
      [
        { type: 'changing', foldersChanged: true },
        { type: 'changed', notice: 'Moved 1 item to a.' },
      ],
      before,
    )
    expect(folders).toMatchObject({ notice: 'Moved 1 item to a.', treeVersion: 1 })
  })

  it('follows the open file when it changes, and leaves it when another changes', () => {
    const opened = run([{ type: 'open_file', file: file('1', 'old.png') }])
    expect(run([{ type: 'file_changed', file: file('1', 'new.png') }], opened).open?.name).toBe(
      'new.png',
    )
    expect(run([{ type: 'file_changed', file: file('2') }], opened)).toBe(opened)
  })

  it('closes the file panel when its file is deleted, not when another is', () => {
    const opened = run([{ type: 'open_file', file: file('1') }])
    expect(run([{ type: 'removed', keys: ['file:2'] }], opened).open?._id).toBe('1')
    expect(run([{ type: 'removed', keys: ['folder:a', 'file:1'] }], opened).open).toBeNull()
  })

  it('keeps the action asked for, the error and the drop target until told otherwise', () => {
    const state = run([
      { type: 'ask', pending: { kind: 'new-folder' } },
      { type: 'failed', message: 'The folder exists.' },
      { type: 'drop_target', folder: 'a' },
    ])
    expect(state).toMatchObject({
      pending: { kind: 'new-folder' },
      actionError: 'The folder exists.',
      dropTarget: 'a',
    })
    expect(
      run(
        [
          { type: 'ask', pending: null },
          { type: 'failed', message: null },
          { type: 'drop_target', folder: null },
        ],
        state,
      ),
    ).toMatchObject({ pending: null, actionError: null, dropTarget: null })
  })
})

describe('what the library says', () => {
  it('names what moved and where, in the singular or plural', () => {
    expect(movedNotice(1, '')).toBe('Moved 1 item to All files.')
    expect(movedNotice(3, 'a/b')).toBe('Moved 3 items to a/b.')
  })

  it('counts what a delete took', () => {
    expect(deletedNotice(1, 0)).toBe('Deleted 1 file.')
    expect(deletedNotice(4, 2)).toBe('Deleted 4 files and 2 folders.')
  })

  it('says what a delete will take before it is confirmed', () => {
    expect(deleteCountText(2, [])).toBe('2 files will be deleted.')
    expect(
      deleteCountText(1, [
        { files: 3, folders: 1, partial: false },
        { files: 0, folders: 0, partial: true },
      ]),
    ).toBe(
      '2 folders with at least 3 files and 1 sub-folder inside, and 1 file will be deleted, everything inside included.',
    )
  })
})

describe('tags, metadata and the search mode (issue 22)', () => {
  it('reads the tag filter and says when the library searches', () => {
    const view = readLibraryParams(new URLSearchParams('tag=%20red%20&path=a'))
    expect(view.tag).toBe('red')
    expect(isSearching(view)).toBe(true)
    expect(isSearching(readLibraryParams(new URLSearchParams('path=a')))).toBe(false)
    expect(isSearching(readLibraryParams(new URLSearchParams('q=%20')))).toBe(false)
  })

  it('reads typed tags and metadata', () => {
    expect(parseTags(' red, sale ,,red ')).toEqual(['red', 'sale'])
    expect(parseTags('')).toEqual([])
    expect(parseMetadata('{"sku":"A1"}')).toEqual({ sku: 'A1' })
    expect(parseMetadata('  ')).toEqual({})
    expect(parseMetadata('[1]')).toMatch(/JSON object/)
    expect(parseMetadata('{nope')).toMatch(/JSON object/)
  })

  it('says what tagging did', () => {
    expect(taggedNotice(1, 'sale')).toBe('Tagged 1 file “sale”.')
    expect(taggedNotice(3, 'sale')).toBe('Tagged 3 files “sale”.')
  })
})
