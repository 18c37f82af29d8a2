/**
 * Node-side rendering of a laid-out chart to a standalone SVG file (the static export in
 * docs/statecharts/). Kept apart from render.tsx so the browser route never pulls react-dom/server.
 */
import { createElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { ChartSvg } from "./render.tsx"
import type { ChartLayout } from "./types.ts"

export const XML_PROLOG = '<?xml version="1.0" encoding="UTF-8"?>'

export const renderChartSvgString = (layout: ChartLayout): string =>
  `${XML_PROLOG}\n${renderToStaticMarkup(createElement(ChartSvg, { layout }))}\n`
