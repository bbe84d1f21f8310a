// A delivery URL's result shown live. Fast operations are a plain <img> (server-rendered, no
// script needed); slow ones answer 202 while their job runs, so the browser fetches them with
// the SPEC §4 retries and shows the result when it is ready.
import { useEffect, useState } from 'react'
import { useConfig } from '../lib/app-context.tsx'
import { fetchImage } from '../lib/image-fetch.ts'
import { signAsVisitor } from '../lib/playground-api.ts'
import './live-image.css'

export function LiveImage({
  src,
  alt,
  slow,
  width,
  height,
}: {
  src: string
  alt: string
  slow: boolean
  width: number
  height: number
}) {
  const [state, setState] = useState<
    { kind: 'loading' } | { kind: 'ready'; url: string } | { kind: 'failed'; message: string }
  >({ kind: 'loading' })
  const config = useConfig()

  useEffect(() => {
    if (!slow) return
    const controller = new AbortController()
    let objectUrl: string | undefined
    // The demo organisation has strict transformations on: the server signs an AI example (a
    // visitor's daily allowance counts it); a server that does not sign gets the plain URL.
    signAsVisitor(config, src)
      .then((answer) => answer.url)
      .catch((error: unknown) => {
        if ((error as { status?: number }).status === 404) return src
        throw error
      })
      .then((url) => fetchImage(url, { signal: controller.signal }))
      .then(({ blob }) => {
        objectUrl = URL.createObjectURL(blob)
        setState({ kind: 'ready', url: objectUrl })
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        setState({ kind: 'failed', message: error instanceof Error ? error.message : 'failed' })
      })
    return () => {
      controller.abort()
      if (objectUrl !== undefined) URL.revokeObjectURL(objectUrl)
    }
  }, [src, slow, config])

  if (!slow) {
    return (
      <img
        className="live-image"
        src={src}
        alt={alt}
        width={width}
        height={height}
        loading="lazy"
        decoding="async"
      />
    )
  }
  if (state.kind === 'ready') {
    return <img className="live-image" src={state.url} alt={alt} width={width} height={height} />
  }
  return (
    <div
      className="live-image is-placeholder"
      role="status"
      style={{ aspectRatio: `${width} / ${height}` }}
    >
      {state.kind === 'loading' ? 'Running the operation…' : `Could not load: ${state.message}`}
    </div>
  )
}
