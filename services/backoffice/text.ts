/**
 * Text fields of the back-office contract: bounded, and text PostgreSQL can store (no NUL, no
 * unpaired surrogate), so a bad character is the edge's 400 naming the field, never a 500 from SQL.
 */
import { Schema } from "effect"
import { isStorableText, unstorableTextMessage } from "../rules.ts"

export const StoredText = (max: number, min = 0) =>
  Schema.String.check(
    Schema.isMinLength(min),
    Schema.isMaxLength(max),
    Schema.makeFilter((s: string) => isStorableText(s) || unstorableTextMessage),
  )
