import type { MouseEvent, ReactNode } from "react"
import { useShellActor } from "../app/actors.tsx"

/** An in-app link: a real <a href> (open in new tab still works) whose plain click goes through the shell. */
export const Link = ({
  to,
  children,
  className,
  reloadIfSame,
  current,
}: {
  to: string
  children: ReactNode
  className?: string
  reloadIfSame?: boolean
  /** The page this link names is the one shown (`aria-current="page"`). */
  current?: boolean
}) => {
  const shell = useShellActor()
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    shell.send({ type: "NAVIGATE", path: to, ...(reloadIfSame ? { reloadIfSame } : {}) })
  }
  return (
    <a href={to} onClick={onClick} className={className} aria-current={current ? "page" : undefined}>
      {children}
    </a>
  )
}
