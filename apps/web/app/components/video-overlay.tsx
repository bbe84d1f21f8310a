import { useEffect, useReducer, useRef } from 'react'
import about from '../assets/product-video.json'
import captionsSrc from '../assets/product-video.vtt?url'
import videoSrc from '../assets/product-video.webm'
import posterSrc from '../assets/product-video-poster.jpg'
import { formatDuration, INITIAL_VIDEO, videoReducer } from '../lib/video-state.ts'
import { CloseIcon, PlayIcon } from './icons.tsx'
import './video-overlay.css'

/** While the overlay is open the page behind it does not scroll (SPEC §2.8). */
const SCROLL_LOCK_CLASS = 'has-video-overlay'

/**
 * The product video (SPEC §2.8): a button that opens a full-screen overlay playing the video,
 * muted, with captions. Closing (the button, Escape, a click beside the video) stops it, gives
 * the page its scrolling back and returns focus to the button.
 */
export function ProductVideo() {
  const [state, dispatch] = useReducer(videoReducer, INITIAL_VIDEO)
  const dialog = useRef<HTMLDialogElement>(null)
  const trigger = useRef<HTMLButtonElement>(null)
  const video = useRef<HTMLVideoElement>(null)
  const closeButton = useRef<HTMLButtonElement>(null)
  const duration = formatDuration(about.seconds)

  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    const root = document.documentElement
    if (state.isPlay) {
      root.classList.add(SCROLL_LOCK_CLASS)
      // A modal dialog: the page behind is inert and focus moves to the close button.
      if (!element.open) element.showModal()
      closeButton.current?.focus()
      // Autoplay is allowed muted; if a browser refuses anyway, the controls are there.
      video.current?.play().catch(() => undefined)
      return () => root.classList.remove(SCROLL_LOCK_CLASS)
    }
    if (element.open) {
      element.close()
      trigger.current?.focus()
    }
    return undefined
  }, [state.isPlay])

  const close = () => dispatch({ type: 'closed' })

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="video-trigger"
        aria-haspopup="dialog"
        onClick={() => dispatch({ type: 'opened' })}
        data-testid="video-trigger"
      >
        <span className="video-trigger-icon">
          <PlayIcon size={16} />
        </span>
        <span>Watch the product video</span>
        <span className="video-trigger-length">
          <span className="visually-hidden">, </span>
          {duration}
        </span>
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop; keyboards close with Escape (the cancel event) or the close button */}
      <dialog
        ref={dialog}
        className="video-overlay"
        aria-labelledby="product-video-title"
        aria-describedby="product-video-about"
        data-testid="video-overlay"
        onCancel={(event) => {
          // Escape: close through the state, so the effect tidies up as for the button.
          event.preventDefault()
          close()
        }}
        // The close event is queued as a task: when the overlay is opened again at once (Escape,
        // then Enter), the old close event arrives after the new showModal() and must not shut it.
        onClose={(event) => {
          if (!event.currentTarget.open) close()
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget) close()
        }}
      >
        <div className="video-overlay-frame">
          <div className="video-overlay-bar">
            <h2 id="product-video-title">Tessera in {duration}</h2>
            <button
              ref={closeButton}
              type="button"
              className="video-overlay-close"
              onClick={close}
              aria-label="Close the video"
              data-testid="video-close"
            >
              <CloseIcon size={22} />
            </button>
          </div>
          {state.isPlay ? (
            <video
              ref={video}
              className="video-overlay-video"
              src={videoSrc}
              poster={posterSrc}
              width={about.width}
              height={about.height}
              autoPlay
              muted
              playsInline
              controls
              preload="auto"
            >
              {/* The captions are also drawn into the picture; the track is there for players
                  and people who want them as text, so it starts off to avoid showing them twice. */}
              <track kind="captions" src={captionsSrc} srcLang="en" label="English" />
            </video>
          ) : null}
          <p id="product-video-about" className="video-overlay-about">
            A silent tour of the product, {duration} long, with captions in the picture.
          </p>
          <details className="video-overlay-transcript">
            <summary>What the video shows</summary>
            <ol>
              {about.scenes.map((scene) => (
                <li key={scene}>{scene}</li>
              ))}
            </ol>
          </details>
        </div>
      </dialog>
    </>
  )
}
