/**
 * Verification documents in the browser: which files the upload accepts before sending
 * (the server decides again, by content), whether a document may be uploaded again, and when the
 * player counts as verified. Pure; the `verificationDocument` machine names them as guards.
 */
import { DOCUMENT_MAX_BYTES, type DocumentStatus, type VerificationDocument } from "./profile-service.ts"

export type DocumentKind = VerificationDocument["kind"]

/** What the verification tab says about each document. */
export const DocumentKinds = {
  ID: {
    title: "Identity document",
    hint: "A passport, national identity card or driving licence, with your photo and full name readable.",
  },
  BILL: {
    title: "Proof of address",
    hint: "A utility bill or bank statement from the last three months, showing your name and address.",
  },
} as const satisfies Record<DocumentKind, { title: string; hint: string }>

export const acceptedDocumentTypes = ["image/jpeg", "image/png", "application/pdf"] as const
/** For the file picker (`accept`): the types and their usual extensions. */
export const documentAccept = [...acceptedDocumentTypes, ".jpg", ".jpeg", ".png", ".pdf"].join(",")

const extensionTypes: Readonly<Record<string, (typeof acceptedDocumentTypes)[number]>> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  pdf: "application/pdf",
}

export type DocumentProblem = "EMPTY" | "TYPE" | "TOO_LARGE"

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`

export const DocumentMessages = {
  empty: "This file is empty. Choose the scan or photo of your document.",
  type: "Choose a JPEG, PNG or PDF file.",
  tooLarge: `This file is larger than ${megabytes(DOCUMENT_MAX_BYTES)}. Choose a smaller scan or photo.`,
  uploaded: "Thank you: your document was uploaded and will be reviewed.",
  uploadFailed: "The upload did not work. Please try again.",
  loadFailed: "The status of this document could not be loaded.",
  verified: "Your identity and address are verified.",
} as const

/** The file the player chose, as the browser describes it (its content is checked by the server). */
export interface ChosenFile {
  readonly name: string
  /** The browser's guess from the name; empty when it has none. */
  readonly type: string
  readonly size: number
}

/** The type a file is taken for: the browser's, or from its extension when the browser gave none. */
export const documentTypeOf = (file: ChosenFile): string => {
  if (file.type !== "") return file.type.toLowerCase()
  const extension = file.name.includes(".") ? (file.name.split(".").pop() ?? "").toLowerCase() : ""
  return extensionTypes[extension] ?? ""
}

/** What is wrong with a chosen file before it is sent, or null. */
export const documentProblem = (file: ChosenFile): DocumentProblem | null => {
  if (file.size <= 0) return "EMPTY"
  if (!acceptedDocumentTypes.some((type) => type === documentTypeOf(file))) return "TYPE"
  if (file.size > DOCUMENT_MAX_BYTES) return "TOO_LARGE"
  return null
}

export const documentMessage = (problem: DocumentProblem): string => {
  switch (problem) {
    case "EMPTY":
      return DocumentMessages.empty
    case "TYPE":
      return DocumentMessages.type
    case "TOO_LARGE":
      return DocumentMessages.tooLarge
  }
}

/** A document waiting for review or approved is locked (the server answers DocumentLocked). */
export const canUploadDocument = (status: DocumentStatus): boolean =>
  status === "NONE" || status === "REJECTED"

/** Verified: both documents approved. */
export const isVerified = (id: DocumentStatus | null, bill: DocumentStatus | null): boolean =>
  id === "APPROVED" && bill === "APPROVED"

export const documentStatusLabel = (status: DocumentStatus): string => {
  switch (status) {
    case "NONE":
      return "Not uploaded"
    case "PENDING":
      return "Waiting for review"
    case "APPROVED":
      return "Approved"
    case "REJECTED":
      return "Rejected"
  }
}
