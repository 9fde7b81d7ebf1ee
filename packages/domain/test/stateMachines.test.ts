import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import {
  advanceMessage,
  CampaignEvent,
  campaignStageOf,
  CampaignStatus,
  campaignTransitions,
  finalStatesOf,
  IllegalTransition,
  initialCampaignStatus,
  initialMessageStatus,
  isCampaignComplete,
  isFinalMessageStatus,
  isSenderIdUsable,
  MessageEvent,
  type MessageLifecycle,
  MessageStatus,
  messageTransitions,
  monotonicStamp,
  type SenderIdEvent,
  SenderIdStatus,
  senderIdTransitions,
  sourcesOf,
  transitionCampaign,
  transitionMessage,
  transitionSenderId,
  transitionsOf,
  transitionWebhookEndpoint,
  ValidationFailed,
  type WebhookEndpointHealth,
  WebhookEndpointStatus,
  webhookEndpointStatus
} from "../src/index.js"

/** Runs every (state, event) pair and returns the legal ones as "from -event-> to". */
const legalPairs = <S extends string, E extends string, X>(
  states: ReadonlyArray<S>,
  events: ReadonlyArray<E>,
  run: (s: S, e: E) => Either.Either<S, X>
): Array<string> => {
  const legal: Array<string> = []
  for (const s of states) {
    for (const e of events) {
      const r = run(s, e)
      if (Either.isRight(r)) legal.push(`${s} -${e}-> ${r.right}`)
      else {
        expect(r.left).toBeInstanceOf(IllegalTransition)
        const err = r.left as unknown as IllegalTransition
        expect(err.error_code).toBe("ILLEGAL_TRANSITION")
        expect(err.from).toBe(s)
        expect(err.event).toBe(e)
      }
    }
  }
  return legal.sort()
}

describe("message machine (decisions.md §19)", () => {
  it("allows exactly the lifecycle of §19 plus the lease release", () => {
    expect(legalPairs(MessageStatus.literals, MessageEvent.literals, transitionMessage)).toEqual([
      "processing -accept-> sent",
      "processing -fail-> failed",
      "processing -release-> queued",
      "queued -claim-> processing",
      "queued -fail-> failed",
      "scheduled -cancel-> failed",
      "scheduled -due-> queued",
      "sent -deliver-> delivered",
      "sent -fail-> failed"
    ])
  })

  it("final states take no event; a repeated delivery receipt is illegal", () => {
    expect(isFinalMessageStatus("delivered")).toBe(true)
    expect(isFinalMessageStatus("failed")).toBe(true)
    expect(isFinalMessageStatus("sent")).toBe(false)
    const r = transitionMessage("delivered", "deliver")
    expect(Either.isLeft(r) && r.left.message).toBe("A message in state delivered cannot take the event deliver.")
    expect(Either.isLeft(r) && r.left.machine).toBe("message")
  })

  it("the initial status follows scheduled_at", () => {
    expect(initialMessageStatus(null)).toBe("queued")
    expect(initialMessageStatus(new Date())).toBe("scheduled")
  })

  it("sourcesOf lists the states an event is allowed from; finalStatesOf those that take none", () => {
    expect(sourcesOf(messageTransitions, "fail")).toEqual(["queued", "processing", "sent"])
    expect(sourcesOf(messageTransitions, "claim")).toEqual(["queued"])
    expect(sourcesOf(messageTransitions, "release")).toEqual(["processing"])
    expect(sourcesOf(messageTransitions, "accept")).toEqual(["processing"])
    expect(sourcesOf(messageTransitions, "deliver")).toEqual(["sent"])
    expect(sourcesOf(messageTransitions, "due")).toEqual(["scheduled"])
    expect(sourcesOf(campaignTransitions, "due")).toEqual(["scheduled"])
    expect(sourcesOf(senderIdTransitions, "reinstate")).toEqual(["suspended"])
    expect(finalStatesOf(messageTransitions)).toEqual(["delivered", "failed"])
    expect(finalStatesOf(campaignTransitions)).toEqual(["completed", "cancelled"])
    expect(sourcesOf(messageTransitions, "cancel")).toEqual(["scheduled"])
    expect(sourcesOf(campaignTransitions, "cancel")).toEqual(["scheduled"])
    // agrees with the step function for every pair
    for (const e of MessageEvent.literals) {
      expect(sourcesOf(messageTransitions, e)).toEqual(
        MessageStatus.literals.filter((s) => Either.isRight(transitionMessage(s, e)))
      )
    }
    for (const s of MessageStatus.literals) {
      expect(finalStatesOf(messageTransitions).includes(s)).toBe(isFinalMessageStatus(s))
    }
  })

  it("transitionsOf lists the table", () => {
    expect(transitionsOf<"a" | "b", "go">({ a: { go: "b" }, b: {} })).toEqual([["a", "go", "b"]])
  })
})

const fresh = (status: MessageLifecycle["status"]): MessageLifecycle => ({
  status,
  queued_at: null,
  sent_at: null,
  delivered_at: null,
  failed_at: null
})
const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s))

describe("message timestamps", () => {
  it("are set on entry", () => {
    let m = fresh("scheduled")
    m = Either.getOrThrow(advanceMessage(m, "due", at(1)))
    m = Either.getOrThrow(advanceMessage(m, "claim", at(2)))
    m = Either.getOrThrow(advanceMessage(m, "accept", at(3)))
    m = Either.getOrThrow(advanceMessage(m, "deliver", at(4)))
    expect(m).toEqual({ status: "delivered", queued_at: at(1), sent_at: at(3), delivered_at: at(4), failed_at: null })
  })

  it("never move backwards when a later worker's clock is behind", () => {
    let m = Either.getOrThrow(advanceMessage(fresh("scheduled"), "due", at(10)))
    m = Either.getOrThrow(advanceMessage(m, "claim", at(5)))
    m = Either.getOrThrow(advanceMessage(m, "accept", at(3)))
    expect(m.sent_at).toEqual(at(10))
    m = Either.getOrThrow(advanceMessage(m, "fail", at(1)))
    expect(m.failed_at).toEqual(at(10))
  })

  it("a retry after release keeps the first queued_at", () => {
    let m = Either.getOrThrow(advanceMessage(fresh("scheduled"), "due", at(1)))
    m = Either.getOrThrow(advanceMessage(m, "claim", at(2)))
    m = Either.getOrThrow(advanceMessage(m, "release", at(30)))
    expect(m.status).toBe("queued")
    expect(m.queued_at).toEqual(at(1))
  })

  it("an illegal event leaves no stamp", () => {
    const r = advanceMessage(fresh("queued"), "deliver", at(1))
    expect(Either.isLeft(r)).toBe(true)
  })

  it("monotonicStamp answers the latest of now and the earlier stamps", () => {
    expect(monotonicStamp(at(5), at(1), null, undefined)).toEqual(at(5))
    expect(monotonicStamp(at(5), at(9), at(7))).toEqual(at(9))
  })

  it.prop(
    "along any run of legal events, stamps keep lifecycle order whatever the clocks say",
    [fc.array(fc.tuple(fc.constantFrom(...MessageEvent.literals), fc.integer({ min: 0, max: 1000 })), {
      maxLength: 20
    })],
    ([steps]) => {
      let m = fresh("scheduled")
      for (const [event, t] of steps) {
        const r = advanceMessage(m, event, at(t))
        if (Either.isRight(r)) {
          const before = m
          m = r.right
          for (const k of ["queued_at", "sent_at", "delivered_at", "failed_at"] as const) {
            if (before[k] !== null) expect(m[k]).toEqual(before[k])
          }
        }
      }
      const order = [m.queued_at, m.sent_at, m.delivered_at ?? m.failed_at].filter((d) => d !== null) as Array<Date>
      for (let i = 1; i < order.length; i++) expect(order[i]!.getTime()).toBeGreaterThanOrEqual(order[i - 1]!.getTime())
      if (m.failed_at !== null && m.queued_at !== null) {
        expect(m.failed_at.getTime()).toBeGreaterThanOrEqual(m.queued_at.getTime())
      }
    }
  )
})

describe("campaign machine", () => {
  it("scheduled -> queued -> completed; only a scheduled campaign can be cancelled", () => {
    expect(legalPairs(CampaignStatus.literals, CampaignEvent.literals, transitionCampaign)).toEqual([
      "queued -complete-> completed",
      "scheduled -cancel-> cancelled",
      "scheduled -due-> queued"
    ])
    expect(initialCampaignStatus(undefined)).toBe("queued")
    expect(initialCampaignStatus(new Date())).toBe("scheduled")
    expect(isCampaignComplete({ queued_count: 3, final_count: 2 })).toBe(false)
    expect(isCampaignComplete({ queued_count: 3, final_count: 3 })).toBe(true)
  })

  it("the stage a customer follows: sending until every accepted message is final, then finished", () => {
    const c = (status: string, queued_count: number, delivery: Record<string, number>) =>
      campaignStageOf({ status, queued_count, delivery })
    expect(c("queued", 4, { delivered: 3, failed: 1 })).toBe("finished")
    expect(c("queued", 4, { delivered: 3, sent: 1 })).toBe("sending")
    expect(c("queued", 4, { queued: 2, processing: 1, failed: 1 })).toBe("sending")
    expect(c("queued", 0, {})).toBe("finished")
    expect(c("completed", 2, { delivered: 2 })).toBe("finished")
    expect(c("scheduled", 3, { scheduled: 3 })).toBe("scheduled")
    expect(c("cancelled", 3, { failed: 3 })).toBe("cancelled")
    // an unknown status in the counts is not final
    expect(c("queued", 1, { mystery: 1 })).toBe("sending")
  })
})

describe("sender ID machine (decisions.md §18)", () => {
  const events: ReadonlyArray<SenderIdEvent> = [
    { type: "approve" },
    { type: "reject", reason: "Name belongs to a bank" },
    { type: "suspend" },
    { type: "reinstate" }
  ]

  it("pending -> approved | rejected, approved -> suspended, suspended -> approved", () => {
    const legal = legalPairs(
      SenderIdStatus.literals,
      events.map((e) => e.type),
      (s, type) => transitionSenderId(s, events.find((e) => e.type === type)!) as Either.Either<SenderIdStatus, never>
    )
    expect(legal).toEqual([
      "approved -suspend-> suspended",
      "pending -approve-> approved",
      "pending -reject-> rejected",
      "suspended -reinstate-> approved"
    ])
  })

  it("a rejection requires a reason", () => {
    for (const reason of ["", "   "]) {
      const r = transitionSenderId("pending", { type: "reject", reason })
      expect(Either.isLeft(r) && r.left).toBeInstanceOf(ValidationFailed)
      expect(Either.isLeft(r) && r.left.error_code).toBe("VALIDATION_FAILED")
    }
  })

  it("names the machine in the error", () => {
    const r = transitionSenderId("rejected", { type: "approve" })
    expect(Either.isLeft(r) && r.left.message).toBe("A sender ID in state rejected cannot take the event approve.")
  })

  it("only approved is usable", () => {
    expect(SenderIdStatus.literals.filter(isSenderIdUsable)).toEqual(["approved"])
  })
})

describe("webhook endpoint machine (decisions.md §23)", () => {
  const enabled: WebhookEndpointHealth = { consecutiveFailures: 0, disabled: false }

  it("the 10th consecutive failure disables it, once", () => {
    let h: WebhookEndpointHealth = enabled
    const flags: Array<boolean> = []
    for (let i = 0; i < 12; i++) {
      const r = Either.getOrThrow(transitionWebhookEndpoint(h, "attempt_failed"))
      flags.push(r.justDisabled)
      h = r
      expect(webhookEndpointStatus(h)).toBe(i >= 9 ? "disabled" : "enabled")
    }
    expect(flags.filter(Boolean)).toHaveLength(1)
    expect(flags[9]).toBe(true)
  })

  it("a success resets the count", () => {
    let h: WebhookEndpointHealth = enabled
    for (let i = 0; i < 9; i++) h = Either.getOrThrow(transitionWebhookEndpoint(h, "attempt_failed"))
    h = Either.getOrThrow(transitionWebhookEndpoint(h, "attempt_succeeded"))
    expect(h.consecutiveFailures).toBe(0)
    h = Either.getOrThrow(transitionWebhookEndpoint(h, "attempt_failed"))
    expect(h.disabled).toBe(false)
  })

  it("the operator re-enables a disabled endpoint, resetting the count; disables an enabled one", () => {
    const disabled = { consecutiveFailures: 10, disabled: true }
    expect(Either.getOrThrow(transitionWebhookEndpoint(disabled, "enable"))).toEqual({
      consecutiveFailures: 0,
      disabled: false,
      justDisabled: false
    })
    expect(Either.getOrThrow(transitionWebhookEndpoint(enabled, "disable")).disabled).toBe(true)
    const again = transitionWebhookEndpoint(enabled, "enable")
    expect(Either.isLeft(again) && again.left.message).toBe(
      "A webhook endpoint in state enabled cannot take the event enable."
    )
    expect(Either.isLeft(transitionWebhookEndpoint(disabled, "disable"))).toBe(true)
  })

  it("an attempt finishing after the endpoint was disabled never re-enables it", () => {
    const disabled = { consecutiveFailures: 10, disabled: true }
    expect(Either.getOrThrow(transitionWebhookEndpoint(disabled, "attempt_succeeded")).disabled).toBe(true)
    expect(WebhookEndpointStatus.literals).toEqual(["enabled", "disabled"])
  })

  it("the threshold is configurable", () => {
    const r = Either.getOrThrow(
      transitionWebhookEndpoint({ consecutiveFailures: 2, disabled: false }, "attempt_failed", {
        disableAfterConsecutiveFailures: 3
      })
    )
    expect(r).toEqual({ consecutiveFailures: 3, disabled: true, justDisabled: true })
  })
})
