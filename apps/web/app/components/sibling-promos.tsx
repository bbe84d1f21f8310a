import { useConfig } from '../lib/app-context.tsx'
import { crossSellUrl } from '../lib/links.ts'
import { DropletOffIcon, EraserIcon, MaximizeIcon } from './icons.tsx'
import { SmartLink } from './nav-link.tsx'

/** The three sibling-tool promos of SPEC §2.8, with cross-sell parameters (SPEC §1). */
export function SiblingPromos({ source }: { source: string }) {
  const config = useConfig()
  const tools = config.siblingTools
  const promos = [
    {
      id: 'background-eraser',
      label: 'Background Eraser',
      text: 'Cut out people, products and cars in one click, ready for any backdrop.',
      href: tools.backgroundRemover,
      icon: <EraserIcon size={22} />,
    },
    {
      id: 'upscaler',
      label: 'Image Upscaler',
      text: 'Enlarge small photos two or four times while keeping edges crisp.',
      href: tools.upscaler,
      icon: <MaximizeIcon size={22} />,
    },
    {
      id: 'watermark-remover',
      label: 'Watermark Remover',
      text: 'Remove text and logo marks from images you own the rights to.',
      href: tools.watermarkRemover,
      icon: <DropletOffIcon size={22} />,
    },
  ]
  return (
    <div className="grid cols-3" data-testid="sibling-promos">
      {promos.map((promo) => (
        <article key={promo.id} className="card promo-card">
          <span className="icon-badge">{promo.icon}</span>
          <h3>{promo.label}</h3>
          <p>{promo.text}</p>
          <SmartLink
            className="card-link"
            href={crossSellUrl(promo.href, {
              source: 'tessera-website',
              ref: `${source}-${promo.id}`,
            })}
            sameTab
          >
            Try {promo.label}
          </SmartLink>
        </article>
      ))}
    </div>
  )
}
