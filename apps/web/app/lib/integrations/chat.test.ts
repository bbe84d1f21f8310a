import { describe, expect, it } from 'vitest'
import {
  chatHost,
  chatInitOptions,
  chatReducer,
  INITIAL_CHAT,
  readRestoreId,
  restoreIdOf,
  saveRestoreId,
  shouldStartChat,
} from './chat.ts'
import { ADA } from './test-user.ts'

const user = ADA

function memoryStore() {
  const map = new Map<string, string>()
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  }
}

describe('when the chat widget starts (SPEC §4, §6)', () => {
  it('starts once a signed-in user is identified and its token is set', () => {
    expect(shouldStartChat(INITIAL_CHAT, { chatToken: 't', user })).toBe(true)
  })

  it('does not start for an anonymous visitor or without a token', () => {
    expect(shouldStartChat(INITIAL_CHAT, { chatToken: 't', user: null })).toBe(false)
    expect(shouldStartChat(INITIAL_CHAT, { chatToken: '', user })).toBe(false)
  })

  it('starts once per user', () => {
    const started = chatReducer(INITIAL_CHAT, {
      type: 'load_started',
      userId: 'u1',
      restoreId: null,
    })
    expect(shouldStartChat(started, { chatToken: 't', user })).toBe(false)
    expect(shouldStartChat(started, { chatToken: 't', user: { ...user, _id: 'u2' } })).toBe(true)
  })
})

describe('chat state', () => {
  it('goes loading → loaded, records the widget and a new restoreId', () => {
    let state = chatReducer(INITIAL_CHAT, { type: 'load_started', userId: 'u1', restoreId: 'r0' })
    expect(state).toMatchObject({ status: 'loading', userId: 'u1', restoreId: 'r0' })
    state = chatReducer(state, { type: 'initialised' })
    state = chatReducer(state, { type: 'widget_loaded' })
    state = chatReducer(state, { type: 'restore_id_received', restoreId: 'r1' })
    expect(state).toEqual({ status: 'loaded', userId: 'u1', restoreId: 'r1', isWidgetLoaded: true })
  })

  it('ends in error when the script fails, and returns to idle when the user leaves', () => {
    const started = chatReducer(INITIAL_CHAT, {
      type: 'load_started',
      userId: 'u1',
      restoreId: null,
    })
    expect(chatReducer(started, { type: 'load_failed' }).status).toBe('error')
    expect(chatReducer(started, { type: 'stopped' })).toEqual(INITIAL_CHAT)
  })
})

describe('the restore call', () => {
  it('carries the restoreId kept for the user', () => {
    const store = memoryStore()
    saveRestoreId(store, 'u1', 'restore-123')
    const restoreId = readRestoreId(store, 'u1')
    expect(restoreId).toBe('restore-123')
    expect(
      chatInitOptions({
        token: 'tok',
        scriptUrl: 'https://wchat.example/js/widget.js',
        user,
        restoreId,
      }),
    ).toEqual({
      token: 'tok',
      host: 'https://wchat.example',
      externalId: 'u1',
      restoreId: 'restore-123',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    })
  })

  it('goes without a restoreId the first time', () => {
    const options = chatInitOptions({
      token: 'tok',
      scriptUrl: 'https://wchat.example/js/widget.js',
      user,
      restoreId: readRestoreId(memoryStore(), 'u1'),
    })
    expect(options).not.toHaveProperty('restoreId')
  })

  it('survives storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked')
      },
      setItem: () => {
        throw new Error('blocked')
      },
      removeItem: () => undefined,
    }
    expect(readRestoreId(broken, 'u1')).toBeNull()
    expect(() => saveRestoreId(broken, 'u1', 'r')).not.toThrow()
  })

  it('reads the restoreId of a user:created event', () => {
    expect(restoreIdOf({ status: 200, data: { restoreId: 'r9' } })).toBe('r9')
    expect(restoreIdOf({ data: {} })).toBeUndefined()
    expect(restoreIdOf(undefined)).toBeUndefined()
  })

  it('takes the host from the script address', () => {
    expect(chatHost('http://127.0.0.1:9/chat.js')).toBe('http://127.0.0.1:9')
    expect(chatHost('not a url')).toBe('')
  })
})
