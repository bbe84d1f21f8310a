import type { ReactNode } from 'react'
import { Link } from 'react-router'
import {
  CodeIcon,
  CropIcon,
  EraserIcon,
  GlobeIcon,
  ImageIcon,
  LayersIcon,
  ShieldIcon,
  SparklesIcon,
  ZapIcon,
} from '../components/icons.tsx'
import { PageHero } from '../components/page-hero.tsx'
import { CardListSection, PageSection } from '../components/page-section.tsx'
import { RouteErrorBoundary } from '../components/route-error.tsx'
import { metaFor } from '../lib/seo.ts'
import type { Route } from './+types/features.ts'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Features',
    description:
      'URL-based transformations, automatic formats, smart crop, background removal, presets, signed URLs and custom domains.',
  })

const FEATURES: { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <ImageIcon />,
    title: 'Transform by URL',
    text: 'Resize, crop, rotate, blur, sharpen, tint, merge and more: write operations in the URL and chain up to 15 of them.',
  },
  {
    icon: <ZapIcon />,
    title: 'Optimised delivery',
    text: 'f_auto answers AVIF or WebP to browsers that accept them, dpr serves sharp images on every screen, and results are cached with strong ETags.',
  },
  {
    icon: <CropIcon />,
    title: 'Smart crop',
    text: 'Attention and entropy strategies keep the subject in frame for every aspect ratio you ask for.',
  },
  {
    icon: <EraserIcon />,
    title: 'Background removal',
    text: 'AI operations run as background jobs; the URL answers 202 until the result is ready, then serves it from cache.',
  },
  {
    icon: <LayersIcon />,
    title: 'Presets',
    text: 'Save a chain under a name and use it as p:card. Presets take variables, so one preset serves many sizes.',
  },
  {
    icon: <SparklesIcon />,
    title: 'Playground',
    text: 'Build a chain visually, compare the original with the result and copy the URL when it looks right.',
  },
  {
    icon: <ShieldIcon />,
    title: 'Signed URLs',
    text: 'Sign delivery URLs with an expiry so only the links you hand out work, and sign every console call.',
  },
  {
    icon: <GlobeIcon />,
    title: 'Custom domains and CDNs',
    text: 'Serve images from your own domain, or put any CDN in front: every response carries the headers it needs.',
  },
  {
    icon: <CodeIcon />,
    title: 'Open and self-hosted',
    text: 'One Node process with an embedded database by default; PostgreSQL and S3-compatible storage when you scale out.',
  },
]

export default function Features() {
  return (
    <>
      <PageHero
        eyebrow="Features"
        title="A complete image pipeline, behind one URL"
        lead="Everything a modern site needs to store, shape and serve images, without writing image code."
      />
      <CardListSection title="Features" titleId="feature-list-heading">
        <div className="grid cols-3">
          {FEATURES.map((feature) => (
            <article key={feature.title} className="card">
              <span className="icon-badge">{feature.icon}</span>
              <h3>{feature.title}</h3>
              <p>{feature.text}</p>
            </article>
          ))}
        </div>
      </CardListSection>
      <PageSection
        title="See it in a URL"
        lead="Each operation is plugin.method(param:value). Join them with ~."
        className="is-alt"
      >
        <pre className="code-block">
          <code>
            {
              '/v2/demo/t.resize(w:800,h:600,f:cover)~t.sharpen(s:1)/samples/rocket.jpg?f_auto=true\n'
            }
            {'/v2/demo/p:card(w:400)/samples/chelsea.png\n'}
            {'/v2/demo/erase.bg(i:ecommerce)/samples/coffee.png'}
          </code>
        </pre>
        <p className="text-center space-above-5">
          <Link className="button is-primary" to="/api">
            Browse the operations
          </Link>
        </p>
      </PageSection>
    </>
  )
}

export const ErrorBoundary = RouteErrorBoundary
