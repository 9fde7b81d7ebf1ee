/** Kiswahili of the portal's Inbox (two-way SMS), spread into sw.ts. */
export const swInbox: Record<string, string> = {
  "Inbox": "Kikasha",
  "Unread messages: {n}": "Jumbe ambazo hazijasomwa: {n}",
  "No replies yet. Messages handsets send to your numbers appear here.":
    "Bado hakuna majibu. Jumbe ambazo simu zinatuma kwa namba zako zinaonekana hapa.",
  "{n} unread": "{n} hazijasomwa",
  "Your numbers": "Namba zako",
  "No number yet: ask the operator to assign one.": "Bado hakuna namba: omba mwendeshaji akupe moja.",
  "Keyword": "Neno kuu",
  "Automatic replies": "Majibu ya moja kwa moja",
  "Sent when a handset writes STOP, START or HELP. Empty: the default text.":
    "Hutumwa simu inapoandika STOP, START au HELP. Tupu: maandishi ya kawaida.",
  "STOP reply (English)": "Jibu la STOP (Kiingereza)",
  "STOP reply (Kiswahili)": "Jibu la STOP (Kiswahili)",
  "START reply (English)": "Jibu la START (Kiingereza)",
  "START reply (Kiswahili)": "Jibu la START (Kiswahili)",
  "HELP reply (English)": "Jibu la HELP (Kiingereza)",
  "HELP reply (Kiswahili)": "Jibu la HELP (Kiswahili)",
  "Save automatic replies": "Hifadhi majibu ya moja kwa moja",
  "Only an owner can change the automatic replies.": "Mmiliki pekee ndiye anaweza kubadilisha majibu ya moja kwa moja.",
  "Conversation with {handset}": "Mazungumzo na {handset}",
  "Back to the inbox": "Rudi kwenye kikasha",
  "Reply from {number}": "Jibu kutoka {number}",
  "Reply": "Jibu",
  "Send reply": "Tuma jibu",
  "Received": "Imepokelewa",
  "Some parts are missing": "Baadhi ya sehemu hazikufika",
  "{n} messages": "Jumbe {n}"
}
