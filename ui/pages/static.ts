/** The pages without a machine of their own, in one chunk (each import() costs first-download bytes). */
export { NotFoundPage } from "./NotFoundPage.tsx"
export { TermsPage } from "./TermsPage.tsx"
