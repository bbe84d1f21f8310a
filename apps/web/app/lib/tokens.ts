// Design tokens of SPEC §9, the one place they are defined. The CSS custom properties in
// styles/tokens.css mirror the sizes; media queries use BREAKPOINTS (tokens.test.ts checks that
// every width in a stylesheet is one of them).

/** Breakpoints in px (SPEC §9). */
export const BREAKPOINTS = {
  mobileXS: 480,
  mobile: 768,
  tablet: 1024,
  laptop: 1200,
  desktop: 1440,
  topNavBar: 1350,
} as const

/** Widths up to this are "mobile" (SPEC §9: about 767). */
export const MOBILE_MAX_WIDTH = BREAKPOINTS.mobile - 1

export const HEADER_HEIGHT = { desktop: 68, mobile: 56 } as const
export const DROPDOWN_WIDTH = 240
/** Header and footer span at most this; page containers at most CONTAINER_MAX_WIDTH. */
export const CONTENT_MAX_WIDTH = 1440
export const CONTAINER_MAX_WIDTH = 1200
export const BUTTON_HEIGHT = { small: 40, default: 48, large: 56 } as const
/** The profile name in the header is cut off beyond these widths. */
export const PROFILE_NAME_MAX_WIDTH = { desktop: 120, mobile: 90 } as const
/** Scrolled further than this, the header gets its blurred background. */
export const HEADER_BLUR_SCROLL_THRESHOLD = 16
