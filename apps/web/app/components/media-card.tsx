// A card with a picture on top: an AI tool, a blog post, a use case, a prediction.
import type { ReactNode } from 'react'
import { CARD_SIZES, ResponsiveImage, type ResponsiveImageProps } from './responsive-image.tsx'

/** The card's picture: its URL, its size and how eagerly it loads. */
export type CardImage = Omit<ResponsiveImageProps, 'className' | 'sizes' | 'decoding' | 'alt'>

/** `className` adds to `card has-media`; `children` is the card's body. */
export function MediaCard({
  image,
  className,
  testId,
  children,
}: {
  image: CardImage | undefined
  className?: string
  testId?: string
  children: ReactNode
}) {
  return (
    <article
      className={className === undefined ? 'card has-media' : `card has-media ${className}`}
      data-testid={testId}
    >
      {image === undefined ? null : (
        <ResponsiveImage className="card-media" sizes={CARD_SIZES} decoding="async" {...image} />
      )}
      <div className="card-body">{children}</div>
    </article>
  )
}
