import { Hono } from 'hono'

/**
 * Builds the HTTP application. Every answer to bad input is a 4xx with a JSON body
 * `{ code, message }`; unexpected failures answer 500 without internals.
 */
export function createApp(): Hono {
  const app = new Hono()

  app.get('/healthz', (c) => c.json({ status: 'ok' }))

  app.notFound((c) =>
    c.json({ code: 'not_found', message: `No route for ${c.req.method} ${c.req.path}` }, 404),
  )
  app.onError((error, c) => {
    console.error(error)
    return c.json(
      { code: 'internal_error', message: 'The server could not answer this request' },
      500,
    )
  })
  return app
}
