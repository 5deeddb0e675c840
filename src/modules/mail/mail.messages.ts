/**
 * The words of the mails, in each site language. Submitters are addressed as the pages address
 * visitors (vous, tu, usted, Sie); `{name}` placeholders are filled by page.i18n.ts's `fill`.
 */

/** The languages mails are written in; any other gets English. */
export const MAIL_LANGUAGES = ['en', 'fr', 'it', 'es', 'de'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/**
 * The English words give the keys and every other language must have the same ones: a missing
 * translation is a type error, not an English sentence in a French mail. (The pages' messagePack
 * does the same for their catalogue; mails keep their own so this module does not depend on it.)
 */
function mailPack<T extends Record<string, string>>(pack: {
  en: T;
  fr: NoInfer<T>;
  it: NoInfer<T>;
  es: NoInfer<T>;
  de: NoInfer<T>;
}): Record<MailLanguage, T> {
  return pack;
}

// French puts a no-break space before `:` and `?`, which also keeps the colon on its line when the
// plain-text body is wrapped.
const NBSP = '\u00a0';

export const MAIL_MESSAGES = mailPack({
  en: {
    hello: 'Hello {name},',
    helloNoName: 'Hello,',
    receivedSubject: 'Event received: {title}',
    receivedText: 'Thank you for sending your event to {site}.',
    receivedNext: 'A moderator will review it soon, and we will write to you again once they have.',
    confirmSubject: 'Please confirm your e-mail address',
    confirmText: 'You sent an event to {site}. To pass it on to the moderators, please confirm your e-mail address:',
    confirmAction: 'Confirm my address',
    confirmIgnore: 'If you did not send this event, ignore this e-mail: it will not be published.',
    publishedSubject: 'Your event is published: {title}',
    publishedText: 'Good news: your event is now on {site}.',
    publishedAction: 'See the event',
    rejectedSubject: 'Your event was not published: {title}',
    rejectedText: 'Thank you for sending your event to {site}. A moderator has decided not to publish it.',
    rejectedReason: 'The moderator’s reason:',
    moderatorSubject: 'New event to review: {title}',
    moderatorText: 'A new event was sent to {site} and is waiting for review.',
    digestSubject: '{site}: events waiting for review ({n})',
    digestText: 'Sent to {site} in the last 24 hours and still waiting:',
    digestNone: 'Nothing new in the last 24 hours.',
    waitingOne: 'In all, {n} event is waiting.',
    waitingOther: 'In all, {n} events are waiting.',
    reviewAction: 'Review pending events',
    sentBy: 'Sent by {name}',
    verified: 'Verified',
    unverified: 'Unverified',
    duplicate: 'Possible duplicate of an existing event',
    moderatorFooter: 'You get these e-mails because you asked for them in your profile on {site}.',
    unsubscribe: 'Stop these e-mails',
    submitterFooter: 'You get this e-mail because an event was sent to {site} with this address.',
  },
  fr: {
    hello: 'Bonjour {name},',
    helloNoName: 'Bonjour,',
    receivedSubject: `Événement reçu${NBSP}: {title}`,
    receivedText: 'Merci d’avoir proposé votre événement sur {site}.',
    receivedNext: 'Un modérateur va l’examiner prochainement, et nous vous écrirons de nouveau à ce moment-là.',
    confirmSubject: 'Confirmez votre adresse e-mail',
    confirmText: `Vous avez proposé un événement sur {site}. Pour qu’il soit transmis aux modérateurs, confirmez votre adresse e-mail${NBSP}:`,
    confirmAction: 'Confirmer mon adresse',
    confirmIgnore: `Si vous n’avez pas proposé cet événement, ignorez cet e-mail${NBSP}: il ne sera pas publié.`,
    publishedSubject: `Votre événement a été publié${NBSP}: {title}`,
    publishedText: `Bonne nouvelle${NBSP}: votre événement est maintenant en ligne sur {site}.`,
    publishedAction: 'Voir l’événement',
    rejectedSubject: `Votre événement n’a pas été publié${NBSP}: {title}`,
    rejectedText: 'Merci d’avoir proposé votre événement sur {site}. Un modérateur a décidé de ne pas le publier.',
    rejectedReason: `Motif indiqué par le modérateur${NBSP}:`,
    moderatorSubject: `Nouvel événement à examiner${NBSP}: {title}`,
    moderatorText: 'Un nouvel événement a été proposé sur {site} et attend d’être examiné.',
    digestSubject: `{site}${NBSP}: événements en attente de modération ({n})`,
    digestText: `Proposés sur {site} ces dernières 24 heures et toujours en attente${NBSP}:`,
    digestNone: 'Rien de nouveau ces dernières 24 heures.',
    waitingOne: 'Au total, {n} événement est en attente.',
    waitingOther: 'Au total, {n} événements sont en attente.',
    reviewAction: 'Voir les événements en attente',
    sentBy: 'Proposé par {name}',
    verified: 'Vérifié',
    unverified: 'Non vérifié',
    duplicate: 'Doublon possible d’un événement existant',
    moderatorFooter: 'Vous recevez ces e-mails parce que vous les avez demandés dans votre profil sur {site}.',
    unsubscribe: 'Ne plus recevoir ces e-mails',
    submitterFooter: 'Vous recevez cet e-mail parce qu’un événement a été proposé sur {site} avec cette adresse.',
  },
  it: {
    hello: 'Ciao {name},',
    helloNoName: 'Ciao,',
    receivedSubject: 'Evento ricevuto: {title}',
    receivedText: 'Grazie per aver proposto il tuo evento su {site}.',
    receivedNext: 'Un moderatore lo esaminerà a breve; ti scriveremo di nuovo quando lo avrà fatto.',
    confirmSubject: 'Conferma il tuo indirizzo e-mail',
    confirmText:
      'Hai proposto un evento su {site}. Perché venga inoltrato ai moderatori, conferma il tuo indirizzo e-mail:',
    confirmAction: 'Conferma il mio indirizzo',
    confirmIgnore: 'Se non hai proposto tu questo evento, ignora questa e-mail: non verrà pubblicato.',
    publishedSubject: 'Il tuo evento è stato pubblicato: {title}',
    publishedText: 'Buone notizie: il tuo evento è ora online su {site}.',
    publishedAction: 'Vedi l’evento',
    rejectedSubject: 'Il tuo evento non è stato pubblicato: {title}',
    rejectedText: 'Grazie per aver proposto il tuo evento su {site}. Un moderatore ha deciso di non pubblicarlo.',
    rejectedReason: 'Motivazione del moderatore:',
    moderatorSubject: 'Nuovo evento da esaminare: {title}',
    moderatorText: 'Un nuovo evento è stato proposto su {site} ed è in attesa di revisione.',
    digestSubject: '{site}: eventi in attesa di revisione ({n})',
    digestText: 'Proposti su {site} nelle ultime 24 ore e ancora in attesa:',
    digestNone: 'Niente di nuovo nelle ultime 24 ore.',
    waitingOne: 'In tutto, {n} evento è in attesa.',
    waitingOther: 'In tutto, {n} eventi sono in attesa.',
    reviewAction: 'Vedi gli eventi in attesa',
    sentBy: 'Proposto da {name}',
    verified: 'Verificato',
    unverified: 'Non verificato',
    duplicate: 'Possibile duplicato di un evento esistente',
    moderatorFooter: 'Ricevi queste e-mail perché le hai richieste nel tuo profilo su {site}.',
    unsubscribe: 'Non ricevere più queste e-mail',
    submitterFooter: 'Ricevi questa e-mail perché un evento è stato proposto su {site} con questo indirizzo.',
  },
  es: {
    hello: 'Hola, {name}:',
    helloNoName: 'Hola:',
    receivedSubject: 'Evento recibido: {title}',
    receivedText: 'Gracias por enviar su evento a {site}.',
    receivedNext: 'Un moderador lo revisará pronto; le escribiremos de nuevo cuando lo haya hecho.',
    confirmSubject: 'Confirme su dirección de correo electrónico',
    confirmText:
      'Ha enviado un evento a {site}. Para que pase a los moderadores, confirme su dirección de correo electrónico:',
    confirmAction: 'Confirmar mi dirección',
    confirmIgnore: 'Si usted no envió este evento, ignore este correo: no se publicará.',
    publishedSubject: 'Su evento ha sido publicado: {title}',
    publishedText: 'Buenas noticias: su evento ya está publicado en {site}.',
    publishedAction: 'Ver el evento',
    rejectedSubject: 'Su evento no ha sido publicado: {title}',
    rejectedText: 'Gracias por enviar su evento a {site}. Un moderador ha decidido no publicarlo.',
    rejectedReason: 'Motivo indicado por el moderador:',
    moderatorSubject: 'Nuevo evento por revisar: {title}',
    moderatorText: 'Se ha enviado un nuevo evento a {site} y está pendiente de revisión.',
    digestSubject: '{site}: eventos pendientes de revisión ({n})',
    digestText: 'Enviados a {site} en las últimas 24 horas y aún pendientes:',
    digestNone: 'Nada nuevo en las últimas 24 horas.',
    waitingOne: 'En total, hay {n} evento pendiente.',
    waitingOther: 'En total, hay {n} eventos pendientes.',
    reviewAction: 'Ver los eventos pendientes',
    sentBy: 'Enviado por {name}',
    verified: 'Verificado',
    unverified: 'No verificado',
    duplicate: 'Posible duplicado de un evento existente',
    moderatorFooter: 'Recibe estos correos porque los solicitó en su perfil de {site}.',
    unsubscribe: 'No recibir más estos correos',
    submitterFooter: 'Recibe este correo porque se envió un evento a {site} con esta dirección.',
  },
  de: {
    hello: 'Hallo {name},',
    helloNoName: 'Hallo,',
    receivedSubject: 'Veranstaltung eingegangen: {title}',
    receivedText: 'Vielen Dank, dass Sie Ihre Veranstaltung bei {site} eingereicht haben.',
    receivedNext: 'Die Moderation prüft sie in Kürze; danach schreiben wir Ihnen wieder.',
    confirmSubject: 'Bitte bestätigen Sie Ihre E-Mail-Adresse',
    confirmText:
      'Sie haben bei {site} eine Veranstaltung eingereicht. Damit sie an die Moderation weitergeleitet wird, bestätigen Sie bitte Ihre E-Mail-Adresse:',
    confirmAction: 'Adresse bestätigen',
    confirmIgnore:
      'Falls Sie diese Veranstaltung nicht eingereicht haben, ignorieren Sie diese E-Mail; die Veranstaltung wird dann nicht veröffentlicht.',
    publishedSubject: 'Ihre Veranstaltung wurde veröffentlicht: {title}',
    publishedText: 'Gute Nachricht: Ihre Veranstaltung ist jetzt auf {site} zu sehen.',
    publishedAction: 'Veranstaltung ansehen',
    rejectedSubject: 'Ihre Veranstaltung wurde nicht veröffentlicht: {title}',
    rejectedText:
      'Vielen Dank, dass Sie Ihre Veranstaltung bei {site} eingereicht haben. Die Moderation hat entschieden, sie nicht zu veröffentlichen.',
    rejectedReason: 'Begründung der Moderation:',
    moderatorSubject: 'Neue Veranstaltung zu prüfen: {title}',
    moderatorText: 'Bei {site} wurde eine neue Veranstaltung eingereicht, die auf Prüfung wartet.',
    digestSubject: '{site}: Veranstaltungen warten auf Prüfung ({n})',
    digestText: 'In den letzten 24 Stunden bei {site} eingereicht und noch offen:',
    digestNone: 'Nichts Neues in den letzten 24 Stunden.',
    waitingOne: 'Insgesamt wartet {n} Veranstaltung.',
    waitingOther: 'Insgesamt warten {n} Veranstaltungen.',
    reviewAction: 'Wartende Veranstaltungen ansehen',
    sentBy: 'Eingereicht von {name}',
    verified: 'Verifiziert',
    unverified: 'Nicht verifiziert',
    duplicate: 'Mögliches Duplikat einer vorhandenen Veranstaltung',
    moderatorFooter: 'Sie erhalten diese E-Mails, weil Sie sie in Ihrem Profil bei {site} angefordert haben.',
    unsubscribe: 'Diese E-Mails abbestellen',
    submitterFooter:
      'Sie erhalten diese E-Mail, weil mit dieser Adresse eine Veranstaltung bei {site} eingereicht wurde.',
  },
});

export type MailMessages = (typeof MAIL_MESSAGES)['en'];

/**
 * The language a mail is written in: the recipient's (`fr`, or `fr-CA` read as `fr`), English for
 * one the mails are not written in.
 */
export function mailLanguage(lang: string): MailLanguage {
  const primary = lang.trim().toLowerCase().split(/[-_]/)[0];
  return (MAIL_LANGUAGES as readonly string[]).includes(primary) ? (primary as MailLanguage) : 'en';
}
