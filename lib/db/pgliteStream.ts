/**
 * An in-process PostgreSQL wire-protocol stream onto an embedded PGlite, so `@effect/sql-pg`'s
 * `PgClient` talks to PGlite exactly as it talks to a PostgreSQL server (its `stream` option).
 *
 * The frontend bytes are framed into whole messages; each message is handed to
 * `PGlite.execProtocolRaw` in order (one at a time, never interleaved) and the backend's answer is
 * pushed back. An `SSLRequest` is answered "N" (no TLS in-process) and `Terminate` ends the stream
 * without stopping PGlite, so a later connection can start again. PGlite is one session: the pool
 * in front of it must hold exactly ONE connection.
 */
import { Duplex } from "node:stream"
import type { PGlite } from "@electric-sql/pglite"

const SSL_REQUEST = 80_877_103
const GSSENC_REQUEST = 80_877_104
const CANCEL_REQUEST = 80_877_102
const TERMINATE = 0x58 // 'X'

/** A simple-protocol Query message. */
const queryMessage = (text: string): Uint8Array => {
  const body = Buffer.from(`${text}\0`, "utf8")
  const out = Buffer.alloc(5 + body.length)
  out.write("Q", 0, "latin1")
  out.writeInt32BE(4 + body.length, 1)
  body.copy(out, 5)
  return out
}

/** Databases that already had a connection: the next one must not inherit its session state. */
const usedBefore = new WeakSet<PGlite>()

export const pgliteStream = (db: PGlite): Duplex => {
  let pending: Buffer = Buffer.alloc(0)
  let started = false
  let queue: Promise<void> = Promise.resolve()
  let closed = false

  const run = (message: Uint8Array): Promise<void> =>
    db.execProtocolRaw(message).then((out) => {
      if (!closed && out.length > 0) duplex.push(Buffer.from(out))
    })

  /** Runs tasks strictly in order; a failure destroys the stream (the pool then reconnects). */
  const enqueue = (task: () => Promise<void>): Promise<void> => {
    queue = queue.then(task).catch((error: unknown) => {
      closed = true
      duplex.destroy(error instanceof Error ? error : new Error(String(error)))
    })
    return queue
  }

  /** Splits `pending` into complete messages and schedules them; returns the scheduled work. */
  const drain = (): Promise<void> => {
    let work: Promise<void> = queue
    for (;;) {
      if (!started) {
        if (pending.length < 8) break
        const len = pending.readInt32BE(0)
        if (pending.length < len) break
        const code = pending.readInt32BE(4)
        const message = pending.subarray(0, len)
        pending = pending.subarray(len)
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          work = enqueue(async () => {
            if (!closed) duplex.push(Buffer.from("N"))
          })
        } else if (code === CANCEL_REQUEST) {
          // PGlite runs queries to completion; there is nothing to cancel.
        } else {
          started = true
          const copy = Uint8Array.from(message)
          const reset = usedBefore.has(db)
          usedBefore.add(db)
          work = enqueue(async () => {
            if (reset) {
              // A previous connection may have left a transaction open or statements prepared.
              await db.execProtocolRaw(queryMessage("ROLLBACK"))
              await db.execProtocolRaw(queryMessage("DISCARD ALL"))
            }
            await run(copy)
          })
        }
        continue
      }
      if (pending.length < 5) break
      const type = pending[0]
      const len = pending.readInt32BE(1) + 1
      if (pending.length < len) break
      const message = Uint8Array.from(pending.subarray(0, len))
      pending = pending.subarray(len)
      if (type === TERMINATE) {
        work = enqueue(async () => {
          closed = true
          duplex.push(null)
        })
        continue
      }
      work = enqueue(() => run(message))
    }
    return work
  }

  const duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      drain().then(() => callback())
    },
    final(callback) {
      queue.then(() => callback())
    },
    destroy(error, callback) {
      closed = true
      callback(error)
    },
  })
  return duplex
}
