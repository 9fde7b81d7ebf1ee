/**
 * Kiswahili of the server's messages (issue 26), by catalogue code (`@tuma/domain/messages`): the type
 * makes every code of the catalogue have its Kiswahili. `swMessages` re-keys them by their English
 * template, the key i18n.tsx looks up.
 */
import type { MessageCode } from "@tuma/domain/messages"
import { messageTemplate } from "@tuma/domain/messages"

const byCode: Readonly<Record<MessageCode, string>> = {
  "field.required": "Sehemu ya {field} inahitajika.",
  "field.required_without": "Sehemu ya {field} inahitajika pale {other} haipo.",
  "field.required_with_protection": "Sehemu ya {field} inahitajika ukiomba ulinzi wa jina.",
  "field.synonyms_equal": "Sehemu za {field} na {other} lazima zilingane zikitolewa zote mbili.",
  "field.string": "Sehemu ya {field} lazima iwe maandishi.",
  "field.string_or_number": "Sehemu ya {field} lazima iwe maandishi au namba.",
  "field.string_max": "Sehemu ya {field} lazima iwe maandishi ya herufi zisizozidi {max}.",
  "field.uuid": "Sehemu ya {field} lazima iwe kitambulisho halali (UUID).",
  "field.datetime": "Sehemu ya {field} lazima iwe tarehe na saa halali (ISO 8601).",
  "field.datetime_iso": "Sehemu ya {field} lazima iwe tarehe na saa (ISO 8601).",
  "field.date": "Sehemu ya {field} lazima iwe tarehe halali kwa muundo YYYY-MM-DD.",
  "field.date_short": "Sehemu ya {field} lazima iwe tarehe halali (YYYY-MM-DD).",
  "field.future": "Sehemu ya {field} lazima iwe tarehe na saa ijayo.",
  "field.date_after_or_equal": "Sehemu ya {field} lazima iwe tarehe ileile au baada ya {other}.",
  "field.date_after": "Sehemu ya {field} lazima iwe tarehe baada ya {other}.",
  "field.array": "Sehemu ya {field} lazima iwe orodha.",
  "field.min_one_item": "Sehemu ya {field} lazima iwe na angalau kipengele kimoja.",
  "field.max_items": "Sehemu ya {field} isiwe na vipengele zaidi ya {max}.",
  "field.integer": "Sehemu ya {field} lazima iwe namba kamili.",
  "field.min_one": "Sehemu ya {field} lazima iwe angalau 1.",
  "field.positive_integer": "Sehemu ya {field} lazima iwe namba kamili chanya.",
  "field.non_negative_integer": "Sehemu ya {field} lazima iwe namba kamili isiyo hasi.",
  "field.non_zero_integer": "Sehemu ya {field} lazima iwe namba kamili isiyo sifuri (hasi huondoa salio).",
  "field.decimal_2": "Sehemu ya {field} lazima iwe namba yenye desimali zisizozidi 2.",
  "field.too_large": "Sehemu ya {field} ni kubwa mno.",
  "field.boolean": "Sehemu ya {field} lazima iwe ndiyo au hapana.",
  "field.base64": "Sehemu ya {field} lazima iwe base64 halali.",
  "field.nul": "Sehemu ya {field} isiwe na herufi NUL (U+0000).",
  "field.min_chars": "Sehemu ya {field} lazima iwe na angalau herufi {min}.",
  "field.max_chars": "Sehemu ya {field} isizidi herufi {max}.",
  "field.ascii_key": "Sehemu ya {field} lazima iwe herufi 1 hadi 255 za ASCII zinazoonekana.",
  "field.phone_or_object": "Sehemu ya {field} lazima iwe namba ya simu au kitu chenye sehemu ya to.",
  "field.format": "Muundo wa {field} si sahihi.",
  "field.email": "Sehemu ya {field} lazima iwe anwani halali ya barua pepe.",
  "field.e164": "Sehemu ya {field} lazima iwe namba ya simu halali kwa muundo wa E.164.",
  "field.sender_id_rules": "Sehemu ya {field} lazima iwe herufi, tarakimu na nafasi moja moja, {min} hadi {max}.",
  "field.file_types": "Sehemu ya {field} lazima iwe faili la aina: {formats}.",
  "field.file_content_checked": "Sehemu ya {field} lazima iwe faili la {formats} (maudhui yamekaguliwa).",
  "field.file_content": "Sehemu ya {field} lazima iwe faili la {formats}.",
  "field.file_mismatch": "Maudhui ya {field} hayalingani na jina la faili.",
  "field.file_size": "Sehemu ya {field} isizidi kilobaiti {max}.",
  "field.selected_invalid": "Chaguo la {field} si sahihi.",
  "field.selected_country": "Chaguo la {field} si sahihi: nchi {country} haijulikani.",
  "validation.invalid": "Taarifa zilizotolewa si sahihi.",
  "document.required": "Hati \"{name}\" inahitajika.",
  "phone.required": "Mpokeaji anahitajika.",
  "phone.too_long": "Namba ya mpokeaji isizidi herufi {max}.",
  "phone.characters": "Namba ya mpokeaji iwe na tarakimu tu, + moja mwanzoni, nafasi, mabano, nukta na vistari.",
  "phone.international_format": "Namba ya mpokeaji lazima iwe kwa muundo wa kimataifa, ianze na + na msimbo wa nchi.",
  "phone.invalid": "Namba ya mpokeaji si namba ya simu halali.",
  "phone.no_country": "Namba ya mpokeaji si namba ya simu ya nchi yoyote.",
  "phone.duplicate": "{recipient} imeorodheshwa zaidi ya mara moja; inatumiwa mara moja tu, kwa ya kwanza.",
  "sender_id.characters":
    "Kitambulisho cha mtumaji kiwe na herufi A-Z, tarakimu na nafasi moja moja kati ya maneno tu.",
  "sender_id.too_short": "Kitambulisho cha mtumaji lazima kiwe na angalau herufi {min}.",
  "sender_id.too_long": "Kitambulisho cha mtumaji kisizidi herufi {max}.",
  "sender_id.reserved": "Kitambulisho cha mtumaji {sender_id} kimehifadhiwa na hakiwezi kuombwa.",
  "sender_id.rules": "Herufi 3 hadi 11: herufi A-Z, tarakimu na nafasi moja moja kati ya maneno; bila alama wala " +
    "lafudhi. Nafasi za pembeni huondolewa, nafasi zinazojirudia huunganishwa, na jina huhifadhiwa kwa herufi kubwa. " +
    "Majina yaliyohifadhiwa hukataliwa kila mara.",
  "sender_id.sample_rules": "Herufi 50 hadi 500: ujumbe halisi utakaotuma kwa kitambulisho hiki cha mtumaji.",
  "sender_id.eligible": "Akaunti imenunua uniti {purchased} za SMS; zinahitajika angalau {required}.",
  "sender_id.not_eligible":
    "Nunua angalau uniti {missing} zaidi za SMS ili uombe kitambulisho cha mtumaji (umenunua {purchased} kati ya {required}).",
  "sender_id.exists_for_account":
    "Akaunti tayari ina kitambulisho cha mtumaji {sender_id} kwa {country}; hamisha rekodi hiyo badala yake.",
  "sender_id.already_requested":
    "Kitambulisho cha mtumaji {sender_id} tayari kipo kwa {country}; angalia orodha badala ya kuomba tena.",
  "sender_id.country_closed":
    "{country} bado haijafunguliwa kwa kutuma; vitambulisho vya mtumaji haviwezi kuombwa huko.",
  "sender_id.country_unavailable": "Nchi uliyochagua haipatikani kwa vitambulisho vya mtumaji.",
  "sender_id.rejection_reason_required": "Sababu inahitajika ili kukataa kitambulisho cha mtumaji.",
  "sender_id.rejection_requires_reason": "Kukataa kunahitaji sababu.",
  "send.account_inactive": "Akaunti yako haiko hai.",
  "send.sender_id_not_approved":
    "Kitambulisho cha mtumaji {sender_id} hakijaidhinishwa kwenye akaunti yako kwa {country}.",
  "send.sender_id_pending": "Kitambulisho cha mtumaji {sender_id} ni {status}, hakijaidhinishwa kwa {country}.",
  "send.country_not_available": "Kutuma kwenda {country} hakupatikani.",
  "send.route_not_verified": "Akaunti yako haina njia ya SMS iliyothibitishwa kwa {country}.",
  "send.route_not_verified_verify":
    "Hakuna njia ya SMS iliyothibitishwa kwa {country}: thibitisha namba ya simu huko kwanza.",
  "send.opted_out": "Mpokeaji {recipient} amejiondoa kwenye jumbe zako.",
  "send.no_provider_route": "Hakuna njia ya mtoa huduma inayopatikana kwa {country}.",
  "send.provider_credit_exhausted": "Salio la mtoa huduma kwa {country} limekwisha.",
  "send.insufficient_balance": "Salio halitoshi: uniti {required} zinahitajika {country}, zipo {available}.",
  "send.insufficient_balance_campaign": "Salio halitoshi: kampeni inahitaji {detail}.",
  "send.idempotency_key_reused":
    "Idempotency-Key hii ilishatumika kwa ombi tofauti. Tumia ufunguo mpya kwa ujumbe mpya.",
  "send.rate_limited": "Maombi mengi mno kwa ufunguo huu wa API; punguza kasi.",
  "send.duplicate_content":
    "Ujumbe huo huo kutoka kitambulisho hiki cha mtumaji umetumwa zaidi ya mara {limit} ndani ya dakika {minutes}; jaribu tena baadaye.",
  "send.empty": "Ujumbe ni mtupu: hakuna cha kutuma.",
  "send.body_empty": "Maandishi ni matupu: hakuna cha kutuma.",
  "send.nothing_left":
    "Hakuna kilichobaki cha kutuma baada ya kubadilisha: maandishi yalikuwa na emoji au herufi zisizoonekana tu.",
  "send.too_long": "Ujumbe una herufi {characters}; zinazoruhusiwa ni {max} tu.",
  "send.tag_invalid": "Lebo {tag} si sahihi: {reason}.",
  "spam.blocked_phrase": "Ujumbe umekataliwa na sera ya barua taka: una maneno yaliyozuiwa \"{phrase}\".",
  "spam.no_links": "Ujumbe umekataliwa na sera ya barua taka: jumbe haziruhusiwi kuwa na viungo.",
  "spam.too_many_links": "Ujumbe umekataliwa na sera ya barua taka: una viungo {links}; vinaruhusiwa {max} tu.",
  "spam.url_shortener": "Ujumbe umekataliwa na sera ya barua taka: viungo vya kufupisha anwani ({host}) haviruhusiwi.",
  "spam.blocked_domain": "Ujumbe umekataliwa na sera ya barua taka: viungo kwenda {host} haviruhusiwi.",
  "spam.domain_not_allowed":
    "Ujumbe umekataliwa na sera ya barua taka: viungo kwenda {host} haviko kwenye orodha inayoruhusiwa.",
  "transition.illegal": "{machine} iliyo katika hali ya {from} haiwezi kupokea tukio {event}.",
  "campaign.not_found": "Kampeni haikupatikana.",
  "failure.no_route": "Haukutumwa: hakuna njia ya mtandao kwenda {country}.",
  "failure.no_credit": "Haukutumwa: hakuna mtandao wenye salio kwa {country}.",
  "failure.unconfirmed":
    "Kufika hakujathibitishwa: mtandao haukuthibitisha kupokea ujumbe wala kutuma taarifa ya kufika.",
  "failure.cancelled": "Kampeni ilighairiwa kabla ya muda wake uliopangwa.",
  "failure.expired": "Haukufika: mtandao haukumfikia mpokeaji kabla muda wa ujumbe haujaisha ({code}).",
  "failure.deleted": "Haukufika: mtandao ulifuta ujumbe kabla haujafika ({code}).",
  "failure.undeliverable": "Haukufika: mtandao haukuweza kuufikisha ujumbe kwenye simu ({code}).",
  "failure.unknown": "Haukufika: mtandao uliripoti ujumbe katika hali isiyojulikana ({code}).",
  "failure.rejected": "Haukufika: mtandao ulikataa ujumbe ({code}).",
  "failure.other_status": "Haukufika: mtandao uliripoti hali {status} ({code}).",
  "failure.gateway_stopping": "Haukutumwa: lango linazimwa.",
  "failure.earlier_part": "Haukutumwa: sehemu iliyotangulia ilikataliwa.",
  "encoding.unicode_kept":
    "Inatumwa kama Unicode (herufi {per} kwa SMS): GSM-7 haiwezi kubeba \"{character}\" ({character_name}), kwa hiyo maandishi yanatumwa kama yalivyoandikwa.",
  "encoding.unicode_kept_removals":
    "Inatumwa kama Unicode (herufi {per} kwa SMS): GSM-7 haiwezi kubeba \"{character}\" ({character_name}), kwa hiyo maandishi yanatumwa kama yalivyoandikwa, isipokuwa vilivyoondolewa vilivyoorodheshwa.",
  "encoding.unicode_cheaper_one":
    "Inatumwa kama Unicode (herufi {per} kwa SMS): kubadilisha kuwa GSM-7 kungechukua sehemu {segments} badala ya {unicode}.",
  "encoding.unicode_cheaper":
    "Inatumwa kama Unicode (herufi {per} kwa SMS): kubadilisha kuwa GSM-7 kungechukua sehemu {segments} badala ya {unicode}.",
  "session.portal_required": "Ingia ili kutumia tovuti (hakuna kikao, au kimeisha).",
  "session.console_required": "Ingia ili kutumia koni (hakuna kikao, au kimeisha).",
  "session.wrong_credentials": "Barua pepe au nenosiri si sahihi.",
  "session.wrong_credentials_code": "Barua pepe, nenosiri au msimbo wa uthibitisho si sahihi.",
  "session.locked_reset": "Majaribio mengi mno ya kuingia yameshindwa. Jaribu tena baadaye au weka upya nenosiri lako.",
  "session.locked": "Majaribio mengi mno ya kuingia yameshindwa. Jaribu tena baadaye.",
  "session.code_required": "Weka msimbo wa uthibitisho kutoka programu yako ya uthibitisho.",
  "session.code_wrong": "Msimbo wa uthibitisho si sahihi.",
  "user.current_password_wrong": "Nenosiri la sasa si sahihi.",
  "user.password_too_short": "Nenosiri lazima liwe na angalau herufi {min}.",
  "user.password_too_long": "Nenosiri lisizidi herufi {max}.",
  "user.email_invalid": "Barua pepe lazima iwe anwani halali.",
  "user.time_zone_invalid": "Saa za eneo lazima ziwe eneo la IANA kama Africa/Dar_es_Salaam.",
  "user.tz_invalid": "Saa za eneo lazima ziwe eneo la IANA.",
  "user.exists": "Mtumiaji wa tovuti mwenye barua pepe hii tayari yupo.",
  "user.not_found": "Mtumiaji hakupatikana.",
  "user.last_owner": "Akaunti lazima ibaki na mmiliki mmoja angalau.",
  "user.owner_required": "Mmiliki wa akaunti pekee ndiye anayeweza kufanya hivi.",
  "invitation.invalid": "Mwaliko huu si halali: umeshatumika au muda wake umekwisha.",
  "invitation.invalid_revoked": "Mwaliko huu si halali: umeshatumika, umebatilishwa au muda wake umekwisha.",
  "invitation.not_found": "Mwaliko haukupatikana.",
  "reset.invalid": "Kiungo hiki cha kuweka upya nenosiri si halali: kimeshatumika au muda wake umekwisha.",
  "api_key.not_found": "Ufunguo wa API haukupatikana.",
  "webhook.one_per_key": "Ufunguo huu wa API tayari una webhook; ibadilishe au iwashe tena.",
  "webhook.url_refused": "Anwani ya webhook imekataliwa: {reason}.",
  "webhook.not_found": "Webhook haikupatikana.",
  "operator.role_forbidden": "Jukumu la {role} haliwezi kufanya hivi (linahitaji {access}).",
  "operator.exists": "Mhudumu mwenye barua pepe hii tayari yupo.",
  "operator.not_found": "Mhudumu hakupatikana.",
  "operator.role_invalid": "Jukumu lazima liwe mojawapo ya admin, reviewer, support.",
  "operator.top_up_reference": "Kumbukumbu (ankara, risiti) inahitajika kwa kuongeza salio.",
  "operator.correction_reason": "Sababu inahitajika kwa marekebisho.",
  "operator.no_wallet": "Akaunti haina pochi ya {country} ya kurekebisha.",
  "operator.correction_negative":
    "Marekebisho yangefanya pochi ya {country} kuwa hasi: salio lake ni {balance}, marekebisho ni {units}.",
  "operator.ledger_entry_foreign": "Ingizo la daftari {entry} si la pochi ya akaunti ya {country}.",
  "provider.exists": "Mtoa huduma anayeitwa {name} tayari yupo.",
  "provider.port": "Port lazima iwe namba kamili kuanzia 1 hadi 65535.",
  "provider.name": "Jina linahitajika (herufi zisizozidi 100).",
  "provider.listed_twice": "Mtoa huduma ameorodheshwa mara mbili.",
  "account.exists": "Akaunti yenye barua pepe {email} tayari ipo.",
  "resource.not_found": "{resource} {id} haikupatikana.",
  "smpp.system_id_length": "System ID lazima iwe na herufi 1 hadi {max}.",
  "smpp.system_id_characters": "System ID inaweza kuwa na herufi, tarakimu, '.', '_' na '-' tu.",
  "smpp.rate": "Kasi lazima iwe namba kamili ya sehemu kwa sekunde, kuanzia {min} hadi {max}.",
  "smpp.burst": "Mlipuko lazima uwe namba kamili ya sehemu, angalau sawa na kasi na isiyozidi {max}.",
  "smpp.max_binds": "Idadi ya bind lazima iwe namba kamili kuanzia {min} hadi {max}.",
  "smpp.address":
    "{address} si anwani ya IP (kama 196.41.2.10) wala kundi la anwani (kama 196.41.2.0/24).",
  "smpp.limits_by_provider":
    "Kasi na idadi ya bind huwekwa na mtoa huduma wako; mwombe yeye azibadilishe.",
  "server.unavailable":
    "Huduma haipatikani kwa muda; hakuna kilichohifadhiwa wala kutozwa. Jaribu tena baada ya muda mfupi.",
  "server.internal": "Hitilafu ya seva. Taja request_uid kwa huduma kwa wateja.",
  "server.body_too_large": "Ombi ni kubwa mno.",
  "server.unreachable": "Seva haipatikani.",
  // --- carrier coverage (console) ---
  "provider.last_carrier":
    "Kuzima {provider} kunaacha {markets} bila mtoa huduma: jumbe za huko zingepokelewa kisha zishindwe. Thibitisha kwa confirm_no_route ili kuzima hata hivyo."
}

/** The Kiswahili of every catalogue message, keyed by its English template. */
export const swMessages: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(byCode).map(([code, text]) => [messageTemplate(code) ?? code, text])
)
