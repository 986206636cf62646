import type { Random } from './random.ts'
import { LANGUAGES, type Language } from './types.ts'

/**
 * Review text in the 13 languages of `translated_review`. Every bank holds the same sentences in the
 * same order in each language, so a review is composed once as a list of sentence indexes and then
 * rendered in every language: the translations say the same thing as the original.
 */

export type Sentiment = 'positive' | 'mixed' | 'negative'
type Bank = Record<Sentiment, readonly string[]>

interface Phrasebook {
  /** A first sentence about the purchase as a whole (4 per sentiment). */
  openers: Bank
  /** About the product itself (4 per sentiment). */
  product: Bank
  /** About delivery, staff and service, for brand and shop reviews (4 per sentiment). */
  service: Bank
  /** A last sentence (3 per sentiment). */
  closers: Bank
  /** Merchant replies (2 per sentiment). */
  replies: Bank
}

interface People {
  male: readonly string[]
  female: readonly string[]
  /** Family names for men (and for everyone where family names do not change with gender). */
  lastMale: readonly string[]
  lastFemale: readonly string[]
}

const PHRASES: Record<Language, Phrasebook> = {
  bg: {
    openers: {
      positive: [
        'Много съм доволен от тази покупка.',
        'Отлично, точно това, което търсех.',
        'Страхотно съотношение цена-качество, възхитен съм.',
        'Наистина добро, по-добро от очакваното.',
      ],
      mixed: [
        'Като цяло прилично, но не идеално.',
        'Добре за цената.',
        'Има добри страни и по-слаби.',
        'Средно, както очаквах.',
      ],
      negative: [
        'Разочарован съм от тази покупка.',
        'Изобщо не е това, което очаквах.',
        'Лошо съотношение цена-качество.',
        'За съжаление не съм доволен.',
      ],
    },
    product: {
      positive: [
        'Качеството е отлично, а изработката – прецизна.',
        'Напълно отговаря на описанието.',
        'Здраво, удобно и лесно за употреба.',
        'Материалите изглеждат висок клас.',
      ],
      mixed: [
        'Качеството е добро, но изработката може да е по-добра.',
        'Работи, въпреки че инструкциите не са ясни.',
        'Цветът е малко по-различен от снимките.',
        'Хубав дизайн, но изглежда малко крехко.',
      ],
      negative: [
        'Счупи се след няколко дни.',
        'Качеството е много под това на снимките.',
        'Размерът не отговаря на описанието.',
        'Материалите изглеждат евтини.',
      ],
    },
    service: {
      positive: [
        'Доставката беше бърза, а пратката – добре опакована.',
        'Персоналът беше любезен и услужлив.',
        'Поръчката беше лесна и бърза.',
        'Обслужването на клиенти отговори в рамките на един ден.',
      ],
      mixed: [
        'Доставката отне повече време от обявеното.',
        'Магазинът е приятен, но опашката беше дълга.',
        'Обслужването на клиенти беше учтиво, но бавно.',
        'Опаковката може да е по-грижлива.',
      ],
      negative: [
        'Пратката пристигна със закъснение и повредена.',
        'Никой не отговори на имейлите ми.',
        'Персоналът не беше услужлив.',
        'Възстановяването на парите отне седмици.',
      ],
    },
    closers: {
      positive: ['Препоръчвам.', 'Ще купя отново.', 'Горещо препоръчвам.'],
      mixed: ['Става, нищо повече.', 'Може би ще купя отново.', 'Струва си при намаление.'],
      negative: ['Не препоръчвам.', 'Няма да купя отново.', 'Върнах го.'],
    },
    replies: {
      positive: ['Благодарим за отзива, радваме се, че сте доволни!', 'Благодарим за доверието, до скоро!'],
      mixed: [
        'Благодарим за обратната връзка, ще предадем забележките ви на екипа ни.',
        'Благодарим, работим да се подобрим в това отношение.',
      ],
      negative: [
        'Съжаляваме за преживяването ви; нашият отдел за обслужване на клиенти ще се свърже с вас.',
        'Извиняваме се за проблема и се свързахме с вас по имейл, за да намерим решение.',
      ],
    },
  },
  cs: {
    openers: {
      positive: [
        'S tímto nákupem jsem velmi spokojený.',
        'Výborné, přesně to, co jsem hledal.',
        'Skvělý poměr cena/výkon, jsem nadšený.',
        'Opravdu dobré, lepší, než jsem čekal.',
      ],
      mixed: [
        'Celkově slušné, ale ne dokonalé.',
        'Za tu cenu v pořádku.',
        'Něco je dobré, něco méně.',
        'Průměrné, jak jsem čekal.',
      ],
      negative: [
        'S tímto nákupem jsem zklamaný.',
        'Vůbec ne to, co jsem čekal.',
        'Špatný poměr cena/výkon.',
        'Bohužel nejsem spokojený.',
      ],
    },
    product: {
      positive: [
        'Kvalita je vynikající a zpracování pečlivé.',
        'Přesně odpovídá popisu.',
        'Pevné, pohodlné a snadno se používá.',
        'Materiály působí prémiově.',
      ],
      mixed: [
        'Kvalita je v pořádku, ale zpracování by mohlo být lepší.',
        'Funguje, i když návod je nejasný.',
        'Barva se trochu liší od fotek.',
        'Pěkný design, ale působí trochu křehce.',
      ],
      negative: [
        'Po pár dnech se to rozbilo.',
        'Kvalita je mnohem horší než na fotkách.',
        'Velikost neodpovídá popisu.',
        'Materiály působí lacině.',
      ],
    },
    service: {
      positive: [
        'Doručení bylo rychlé a balík dobře zabalený.',
        'Personál byl milý a ochotný.',
        'Objednávka byla jednoduchá a rychlá.',
        'Zákaznický servis odpověděl do jednoho dne.',
      ],
      mixed: [
        'Doručení trvalo déle, než bylo oznámeno.',
        'Obchod je příjemný, ale fronta byla dlouhá.',
        'Zákaznický servis byl zdvořilý, ale pomalý.',
        'Balení by mohlo být pečlivější.',
      ],
      negative: [
        'Balík dorazil pozdě a poškozený.',
        'Nikdo neodpověděl na mé e-maily.',
        'Personál nebyl ochotný.',
        'Vrácení peněz trvalo týdny.',
      ],
    },
    closers: {
      positive: ['Doporučuji.', 'Koupím znovu.', 'Vřele doporučuji.'],
      mixed: ['Je to v pořádku, nic víc.', 'Možná koupím znovu.', 'Ve slevě se vyplatí.'],
      negative: ['Nedoporučuji.', 'Už nekoupím.', 'Vrátil jsem to.'],
    },
    replies: {
      positive: [
        'Děkujeme za vaše hodnocení, jsme rádi, že jste spokojeni!',
        'Děkujeme za vaši důvěru, brzy na viděnou!',
      ],
      mixed: [
        'Děkujeme za zpětnou vazbu, vaše připomínky předáme našemu týmu.',
        'Děkujeme, pracujeme na zlepšení v tomto bodě.',
      ],
      negative: [
        'Mrzí nás vaše zkušenost; náš zákaznický servis vás bude kontaktovat.',
        'Omlouváme se za tento problém a kontaktovali jsme vás e-mailem, abychom našli řešení.',
      ],
    },
  },
  de: {
    openers: {
      positive: [
        'Sehr zufrieden mit diesem Kauf.',
        'Hervorragend, genau das, was ich gesucht habe.',
        'Tolles Preis-Leistungs-Verhältnis, ich bin begeistert.',
        'Wirklich gut, besser als erwartet.',
      ],
      mixed: [
        'Insgesamt ordentlich, aber nicht perfekt.',
        'Für den Preis in Ordnung.',
        'Einige gute Punkte, einige weniger gute.',
        'Durchschnittlich, wie erwartet.',
      ],
      negative: [
        'Enttäuscht von diesem Kauf.',
        'Überhaupt nicht das, was ich erwartet habe.',
        'Schlechtes Preis-Leistungs-Verhältnis.',
        'Leider bin ich nicht zufrieden.',
      ],
    },
    product: {
      positive: [
        'Die Qualität ist ausgezeichnet und die Verarbeitung sauber.',
        'Es entspricht genau der Beschreibung.',
        'Stabil, bequem und einfach zu benutzen.',
        'Die Materialien wirken hochwertig.',
      ],
      mixed: [
        'Die Qualität ist in Ordnung, aber die Verarbeitung könnte besser sein.',
        'Es funktioniert, obwohl die Anleitung unklar ist.',
        'Die Farbe weicht etwas von den Fotos ab.',
        'Schönes Design, wirkt aber etwas zerbrechlich.',
      ],
      negative: [
        'Nach wenigen Tagen ging es kaputt.',
        'Die Qualität liegt weit unter den Fotos.',
        'Die Größe entspricht nicht der Beschreibung.',
        'Die Materialien wirken billig.',
      ],
    },
    service: {
      positive: [
        'Die Lieferung war schnell und das Paket gut verpackt.',
        'Das Personal war freundlich und hilfsbereit.',
        'Die Bestellung war einfach und schnell.',
        'Der Kundenservice hat innerhalb eines Tages geantwortet.',
      ],
      mixed: [
        'Die Lieferung dauerte länger als angekündigt.',
        'Der Laden ist schön, aber die Schlange war lang.',
        'Der Kundenservice war höflich, aber langsam.',
        'Die Verpackung könnte sorgfältiger sein.',
      ],
      negative: [
        'Das Paket kam zu spät und beschädigt an.',
        'Niemand hat auf meine E-Mails geantwortet.',
        'Das Personal war nicht hilfsbereit.',
        'Die Erstattung hat Wochen gedauert.',
      ],
    },
    closers: {
      positive: ['Ich empfehle es weiter.', 'Ich werde wieder kaufen.', 'Sehr empfehlenswert.'],
      mixed: ['Es ist okay, mehr nicht.', 'Vielleicht kaufe ich wieder.', 'Im Angebot lohnt es sich.'],
      negative: ['Ich empfehle es nicht.', 'Ich werde nicht wieder kaufen.', 'Ich habe es zurückgeschickt.'],
    },
    replies: {
      positive: [
        'Vielen Dank für Ihre Bewertung, wir freuen uns, dass Sie zufrieden sind!',
        'Vielen Dank für Ihr Vertrauen, bis bald!',
      ],
      mixed: [
        'Vielen Dank für Ihr Feedback, wir leiten Ihre Anmerkungen an unser Team weiter.',
        'Danke, wir arbeiten daran, uns in diesem Punkt zu verbessern.',
      ],
      negative: [
        'Es tut uns leid, dass Sie diese Erfahrung gemacht haben; unser Kundenservice wird sich bei Ihnen melden.',
        'Wir entschuldigen uns für dieses Problem und haben Sie per E-Mail kontaktiert, um eine Lösung zu finden.',
      ],
    },
  },
  el: {
    openers: {
      positive: [
        'Πολύ ικανοποιημένος με αυτή την αγορά.',
        'Εξαιρετικό, ακριβώς αυτό που έψαχνα.',
        'Τέλεια σχέση ποιότητας-τιμής, είμαι ενθουσιασμένος.',
        'Πολύ καλό, καλύτερο από ό,τι περίμενα.',
      ],
      mixed: [
        'Αξιοπρεπές γενικά, αλλά όχι τέλειο.',
        'Καλό για την τιμή του.',
        'Έχει καλά σημεία και κάποια λιγότερο καλά.',
        'Μέτριο, όπως περίμενα.',
      ],
      negative: [
        'Απογοητευμένος από αυτή την αγορά.',
        'Καθόλου αυτό που περίμενα.',
        'Κακή σχέση ποιότητας-τιμής.',
        'Δυστυχώς δεν είμαι ικανοποιημένος.',
      ],
    },
    product: {
      positive: [
        'Η ποιότητα είναι εξαιρετική και το φινίρισμα προσεγμένο.',
        'Αντιστοιχεί απόλυτα στην περιγραφή.',
        'Ανθεκτικό, άνετο και εύκολο στη χρήση.',
        'Τα υλικά δείχνουν υψηλής ποιότητας.',
      ],
      mixed: [
        'Η ποιότητα είναι εντάξει, αλλά το φινίρισμα θα μπορούσε να είναι καλύτερο.',
        'Λειτουργεί, αν και οι οδηγίες δεν είναι σαφείς.',
        'Το χρώμα διαφέρει λίγο από τις φωτογραφίες.',
        'Ωραίο σχέδιο, αλλά φαίνεται λίγο εύθραυστο.',
      ],
      negative: [
        'Χάλασε μετά από λίγες μέρες.',
        'Η ποιότητα είναι πολύ κατώτερη από τις φωτογραφίες.',
        'Το μέγεθος δεν αντιστοιχεί στην περιγραφή.',
        'Τα υλικά φαίνονται φτηνά.',
      ],
    },
    service: {
      positive: [
        'Η παράδοση ήταν γρήγορη και το δέμα καλά συσκευασμένο.',
        'Το προσωπικό ήταν φιλικό και εξυπηρετικό.',
        'Η παραγγελία ήταν απλή και γρήγορη.',
        'Η εξυπηρέτηση πελατών απάντησε μέσα σε μία μέρα.',
      ],
      mixed: [
        'Η παράδοση καθυστέρησε περισσότερο από ό,τι είχε ανακοινωθεί.',
        'Το κατάστημα είναι ωραίο, αλλά η ουρά ήταν μεγάλη.',
        'Η εξυπηρέτηση πελατών ήταν ευγενική αλλά αργή.',
        'Η συσκευασία θα μπορούσε να είναι πιο προσεγμένη.',
      ],
      negative: [
        'Το δέμα έφτασε με καθυστέρηση και κατεστραμμένο.',
        'Κανείς δεν απάντησε στα email μου.',
        'Το προσωπικό δεν ήταν εξυπηρετικό.',
        'Η επιστροφή χρημάτων κράτησε εβδομάδες.',
      ],
    },
    closers: {
      positive: ['Το προτείνω.', 'Θα αγοράσω ξανά.', 'Το συστήνω ανεπιφύλακτα.'],
      mixed: ['Είναι εντάξει, τίποτα παραπάνω.', 'Ίσως αγοράσω ξανά.', 'Αξίζει σε προσφορά.'],
      negative: ['Δεν το προτείνω.', 'Δεν θα αγοράσω ξανά.', 'Το επέστρεψα.'],
    },
    replies: {
      positive: [
        'Ευχαριστούμε για την κριτική σας, χαιρόμαστε που είστε ικανοποιημένοι!',
        'Ευχαριστούμε για την εμπιστοσύνη σας, τα λέμε σύντομα!',
      ],
      mixed: [
        'Ευχαριστούμε για τα σχόλιά σας, θα τα μεταφέρουμε στην ομάδα μας.',
        'Ευχαριστούμε, εργαζόμαστε για να βελτιωθούμε σε αυτό το σημείο.',
      ],
      negative: [
        'Λυπούμαστε για την εμπειρία σας· η εξυπηρέτηση πελατών θα επικοινωνήσει μαζί σας.',
        'Ζητούμε συγγνώμη για το πρόβλημα και επικοινωνήσαμε μαζί σας με email για να βρούμε λύση.',
      ],
    },
  },
  en: {
    openers: {
      positive: [
        'Very happy with this purchase.',
        'Excellent, exactly what I was looking for.',
        'Great value, I am delighted.',
        'Really good, better than expected.',
      ],
      mixed: [
        'Decent overall, but not perfect.',
        'Fine for the price.',
        'Some good points, some less good.',
        'Average, as expected.',
      ],
      negative: [
        'Disappointed with this purchase.',
        'Not what I expected at all.',
        'Poor value for money.',
        'Unfortunately, I am not satisfied.',
      ],
    },
    product: {
      positive: [
        'The quality is excellent and the finish is neat.',
        'It matches the description perfectly.',
        'Solid, comfortable and easy to use.',
        'The materials feel premium.',
      ],
      mixed: [
        'The quality is fine, but the finish could be better.',
        'It works, although the instructions are unclear.',
        'The colour is slightly different from the photos.',
        'Nice design, but it feels a little fragile.',
      ],
      negative: [
        'It broke after a few days.',
        'The quality is far below the photos.',
        'The size does not match the description.',
        'The materials feel cheap.',
      ],
    },
    service: {
      positive: [
        'Delivery was fast and the parcel was well packed.',
        'The staff were friendly and helpful.',
        'Ordering was simple and quick.',
        'Customer service answered within a day.',
      ],
      mixed: [
        'Delivery took longer than announced.',
        'The shop is nice, but the queue was long.',
        'Customer service was polite but slow.',
        'The packaging could be more careful.',
      ],
      negative: [
        'The parcel arrived late and damaged.',
        'Nobody answered my emails.',
        'The staff were unhelpful.',
        'The refund took weeks.',
      ],
    },
    closers: {
      positive: ['I recommend it.', 'I will buy again.', 'Highly recommended.'],
      mixed: ['It is okay, nothing more.', 'I might buy again.', 'Worth it on sale.'],
      negative: ['I do not recommend it.', 'I will not buy again.', 'I sent it back.'],
    },
    replies: {
      positive: [
        'Thank you for your review, we are glad you are satisfied!',
        'Thank you for your trust, see you soon!',
      ],
      mixed: [
        'Thank you for your feedback, we will pass your remarks on to our team.',
        'Thank you, we are working to improve on this point.',
      ],
      negative: [
        'We are sorry about your experience; our customer service will contact you.',
        'We apologise for this problem and have contacted you by email to find a solution.',
      ],
    },
  },
  es: {
    openers: {
      positive: [
        'Muy contento con esta compra.',
        'Excelente, justo lo que buscaba.',
        'Muy buena relación calidad-precio, estoy encantado.',
        'Muy bien, mejor de lo esperado.',
      ],
      mixed: [
        'Correcto en general, pero no perfecto.',
        'Bien para el precio.',
        'Tiene puntos buenos y otros no tanto.',
        'Normal, como esperaba.',
      ],
      negative: [
        'Decepcionado con esta compra.',
        'Nada de lo que esperaba.',
        'Mala relación calidad-precio.',
        'Lamentablemente, no estoy satisfecho.',
      ],
    },
    product: {
      positive: [
        'La calidad es excelente y el acabado, cuidado.',
        'Coincide perfectamente con la descripción.',
        'Resistente, cómodo y fácil de usar.',
        'Los materiales parecen de alta gama.',
      ],
      mixed: [
        'La calidad es correcta, pero el acabado podría ser mejor.',
        'Funciona, aunque las instrucciones no son claras.',
        'El color es algo distinto al de las fotos.',
        'Bonito diseño, pero parece algo frágil.',
      ],
      negative: [
        'Se rompió a los pocos días.',
        'La calidad está muy por debajo de las fotos.',
        'La talla no corresponde a la descripción.',
        'Los materiales parecen baratos.',
      ],
    },
    service: {
      positive: [
        'La entrega fue rápida y el paquete venía bien embalado.',
        'El personal fue amable y servicial.',
        'Hacer el pedido fue sencillo y rápido.',
        'El servicio de atención al cliente respondió en un día.',
      ],
      mixed: [
        'La entrega tardó más de lo anunciado.',
        'La tienda es agradable, pero la cola era larga.',
        'El servicio de atención al cliente fue educado pero lento.',
        'El embalaje podría ser más cuidadoso.',
      ],
      negative: [
        'El paquete llegó tarde y dañado.',
        'Nadie respondió a mis correos.',
        'El personal no fue nada servicial.',
        'El reembolso tardó semanas.',
      ],
    },
    closers: {
      positive: ['Lo recomiendo.', 'Volveré a comprar.', 'Muy recomendable.'],
      mixed: ['Está bien, sin más.', 'Quizá vuelva a comprar.', 'Vale la pena en oferta.'],
      negative: ['No lo recomiendo.', 'No volveré a comprar.', 'Lo devolví.'],
    },
    replies: {
      positive: [
        'Gracias por su opinión, ¡nos alegra que esté satisfecho!',
        'Gracias por su confianza, ¡hasta pronto!',
      ],
      mixed: [
        'Gracias por sus comentarios, los transmitiremos a nuestro equipo.',
        'Gracias, estamos trabajando para mejorar en este aspecto.',
      ],
      negative: [
        'Lamentamos su experiencia; nuestro servicio de atención al cliente se pondrá en contacto con usted.',
        'Le pedimos disculpas por este problema y le hemos escrito por correo electrónico para encontrar una solución.',
      ],
    },
  },
  fr: {
    openers: {
      positive: [
        'Très content de cet achat.',
        'Excellent, exactement ce que je cherchais.',
        'Super rapport qualité-prix, je suis ravi.',
        'Vraiment bien, mieux que prévu.',
      ],
      mixed: [
        "Correct dans l'ensemble, mais pas parfait.",
        'Bien pour le prix.',
        "Des points positifs, d'autres moins.",
        'Moyen, comme prévu.',
      ],
      negative: [
        'Déçu de cet achat.',
        "Pas du tout ce que j'attendais.",
        'Mauvais rapport qualité-prix.',
        'Malheureusement, je ne suis pas satisfait.',
      ],
    },
    product: {
      positive: [
        'La qualité est excellente et la finition soignée.',
        'Il correspond parfaitement à la description.',
        'Solide, confortable et facile à utiliser.',
        'Les matériaux font haut de gamme.',
      ],
      mixed: [
        'La qualité est correcte, mais la finition pourrait être meilleure.',
        "Il fonctionne, même si la notice n'est pas claire.",
        'La couleur est un peu différente des photos.',
        'Beau design, mais il semble un peu fragile.',
      ],
      negative: [
        "Il s'est cassé au bout de quelques jours.",
        'La qualité est bien en dessous des photos.',
        'La taille ne correspond pas à la description.',
        'Les matériaux font bon marché.',
      ],
    },
    service: {
      positive: [
        'Livraison rapide et colis bien emballé.',
        'Le personnel était aimable et serviable.',
        'La commande a été simple et rapide.',
        'Le service client a répondu en une journée.',
      ],
      mixed: [
        'La livraison a pris plus de temps que prévu.',
        "La boutique est agréable, mais l'attente était longue.",
        'Le service client était poli mais lent.',
        "L'emballage pourrait être plus soigné.",
      ],
      negative: [
        'Le colis est arrivé en retard et abîmé.',
        "Personne n'a répondu à mes e-mails.",
        "Le personnel n'a pas été serviable.",
        'Le remboursement a pris des semaines.',
      ],
    },
    closers: {
      positive: ['Je recommande.', "J'achèterai à nouveau.", 'Je le recommande vivement.'],
      mixed: ["C'est correct, sans plus.", "J'achèterai peut-être à nouveau.", 'Intéressant en promotion.'],
      negative: ['Je ne recommande pas.', "Je n'achèterai plus.", "Je l'ai renvoyé."],
    },
    replies: {
      positive: [
        'Merci pour votre avis, nous sommes ravis que vous soyez satisfait !',
        'Merci pour votre confiance, à bientôt !',
      ],
      mixed: [
        'Merci pour votre retour, nous transmettons vos remarques à notre équipe.',
        'Merci, nous travaillons à nous améliorer sur ce point.',
      ],
      negative: [
        'Nous sommes désolés de votre expérience ; notre service client va vous contacter.',
        'Toutes nos excuses pour ce problème, nous vous avons contacté par e-mail pour trouver une solution.',
      ],
    },
  },
  it: {
    openers: {
      positive: [
        'Molto soddisfatto di questo acquisto.',
        'Eccellente, proprio quello che cercavo.',
        'Ottimo rapporto qualità-prezzo, sono entusiasta.',
        'Davvero buono, meglio del previsto.',
      ],
      mixed: [
        'Discreto nel complesso, ma non perfetto.',
        'Va bene per il prezzo.',
        'Alcuni punti buoni, altri meno.',
        'Nella media, come previsto.',
      ],
      negative: [
        'Deluso da questo acquisto.',
        'Per niente quello che mi aspettavo.',
        'Pessimo rapporto qualità-prezzo.',
        'Purtroppo non sono soddisfatto.',
      ],
    },
    product: {
      positive: [
        'La qualità è eccellente e le finiture sono curate.',
        'Corrisponde perfettamente alla descrizione.',
        'Robusto, comodo e facile da usare.',
        'I materiali sembrano di alta qualità.',
      ],
      mixed: [
        'La qualità è discreta, ma le finiture potrebbero essere migliori.',
        'Funziona, anche se le istruzioni non sono chiare.',
        "Il colore è un po' diverso dalle foto.",
        "Bel design, ma sembra un po' fragile.",
      ],
      negative: [
        'Si è rotto dopo pochi giorni.',
        'La qualità è molto inferiore alle foto.',
        'La taglia non corrisponde alla descrizione.',
        'I materiali sembrano scadenti.',
      ],
    },
    service: {
      positive: [
        'La consegna è stata rapida e il pacco ben imballato.',
        'Il personale è stato gentile e disponibile.',
        'Ordinare è stato semplice e veloce.',
        'Il servizio clienti ha risposto entro un giorno.',
      ],
      mixed: [
        'La consegna ha richiesto più tempo del previsto.',
        'Il negozio è carino, ma la fila era lunga.',
        'Il servizio clienti è stato cortese ma lento.',
        "L'imballaggio potrebbe essere più accurato.",
      ],
      negative: [
        'Il pacco è arrivato in ritardo e danneggiato.',
        'Nessuno ha risposto alle mie email.',
        'Il personale non è stato disponibile.',
        'Il rimborso ha richiesto settimane.',
      ],
    },
    closers: {
      positive: ['Lo consiglio.', 'Comprerò di nuovo.', 'Consigliatissimo.'],
      mixed: ['Va bene, niente di più.', 'Forse comprerò di nuovo.', 'Conviene in offerta.'],
      negative: ['Non lo consiglio.', 'Non comprerò più.', "L'ho restituito."],
    },
    replies: {
      positive: [
        'Grazie per la sua recensione, siamo felici che sia soddisfatto!',
        'Grazie per la fiducia, a presto!',
      ],
      mixed: [
        'Grazie per il suo riscontro, inoltreremo le sue osservazioni al nostro team.',
        'Grazie, stiamo lavorando per migliorare su questo punto.',
      ],
      negative: [
        'Ci dispiace per la sua esperienza; il nostro servizio clienti la contatterà.',
        "Ci scusiamo per il problema e l'abbiamo contattata via email per trovare una soluzione.",
      ],
    },
  },
  nl: {
    openers: {
      positive: [
        'Erg tevreden met deze aankoop.',
        'Uitstekend, precies wat ik zocht.',
        'Geweldige prijs-kwaliteitverhouding, ik ben blij.',
        'Echt goed, beter dan verwacht.',
      ],
      mixed: [
        'Over het algemeen redelijk, maar niet perfect.',
        'Prima voor de prijs.',
        'Enkele goede punten, enkele minder goede.',
        'Gemiddeld, zoals verwacht.',
      ],
      negative: [
        'Teleurgesteld in deze aankoop.',
        'Helemaal niet wat ik verwachtte.',
        'Slechte prijs-kwaliteitverhouding.',
        'Helaas ben ik niet tevreden.',
      ],
    },
    product: {
      positive: [
        'De kwaliteit is uitstekend en de afwerking is netjes.',
        'Het komt perfect overeen met de beschrijving.',
        'Stevig, comfortabel en makkelijk in gebruik.',
        'De materialen voelen hoogwaardig aan.',
      ],
      mixed: [
        'De kwaliteit is redelijk, maar de afwerking kan beter.',
        'Het werkt, al is de handleiding onduidelijk.',
        "De kleur wijkt iets af van de foto's.",
        'Mooi ontwerp, maar het voelt wat breekbaar.',
      ],
      negative: [
        'Het ging na een paar dagen kapot.',
        "De kwaliteit is veel slechter dan op de foto's.",
        'De maat klopt niet met de beschrijving.',
        'De materialen voelen goedkoop aan.',
      ],
    },
    service: {
      positive: [
        'De levering was snel en het pakket goed verpakt.',
        'Het personeel was vriendelijk en behulpzaam.',
        'Bestellen ging eenvoudig en snel.',
        'De klantenservice antwoordde binnen een dag.',
      ],
      mixed: [
        'De levering duurde langer dan aangekondigd.',
        'De winkel is leuk, maar de rij was lang.',
        'De klantenservice was beleefd maar traag.',
        'De verpakking kan zorgvuldiger.',
      ],
      negative: [
        'Het pakket kwam te laat en beschadigd aan.',
        'Niemand heeft op mijn e-mails gereageerd.',
        'Het personeel was niet behulpzaam.',
        'De terugbetaling duurde weken.',
      ],
    },
    closers: {
      positive: ['Ik raad het aan.', 'Ik koop het opnieuw.', 'Een echte aanrader.'],
      mixed: [
        'Het is oké, meer niet.',
        'Misschien koop ik het opnieuw.',
        'De moeite waard in de uitverkoop.',
      ],
      negative: ['Ik raad het niet aan.', 'Ik koop het niet meer.', 'Ik heb het teruggestuurd.'],
    },
    replies: {
      positive: [
        'Bedankt voor uw review, we zijn blij dat u tevreden bent!',
        'Bedankt voor uw vertrouwen, tot snel!',
      ],
      mixed: [
        'Bedankt voor uw feedback, we geven uw opmerkingen door aan ons team.',
        'Bedankt, we werken eraan om dit punt te verbeteren.',
      ],
      negative: [
        'Het spijt ons dat u deze ervaring had; onze klantenservice neemt contact met u op.',
        'Onze excuses voor dit probleem; we hebben u per e-mail benaderd om een oplossing te vinden.',
      ],
    },
  },
  pl: {
    openers: {
      positive: [
        'Jestem bardzo zadowolony z tego zakupu.',
        'Doskonały, dokładnie tego szukałem.',
        'Świetny stosunek jakości do ceny, jestem zachwycony.',
        'Naprawdę dobry, lepszy, niż się spodziewałem.',
      ],
      mixed: [
        'Ogólnie przyzwoity, ale nie idealny.',
        'W porządku jak na tę cenę.',
        'Są plusy i minusy.',
        'Przeciętny, zgodnie z oczekiwaniami.',
      ],
      negative: [
        'Jestem rozczarowany tym zakupem.',
        'Zupełnie nie to, czego oczekiwałem.',
        'Słaby stosunek jakości do ceny.',
        'Niestety nie jestem zadowolony.',
      ],
    },
    product: {
      positive: [
        'Jakość jest doskonała, a wykończenie staranne.',
        'Idealnie zgadza się z opisem.',
        'Solidny, wygodny i łatwy w użyciu.',
        'Materiały sprawiają wrażenie wysokiej jakości.',
      ],
      mixed: [
        'Jakość jest w porządku, ale wykończenie mogłoby być lepsze.',
        'Działa, chociaż instrukcja jest niejasna.',
        'Kolor trochę różni się od zdjęć.',
        'Ładny wygląd, ale wydaje się nieco delikatny.',
      ],
      negative: [
        'Zepsuł się po kilku dniach.',
        'Jakość jest dużo gorsza niż na zdjęciach.',
        'Rozmiar nie zgadza się z opisem.',
        'Materiały wydają się tanie.',
      ],
    },
    service: {
      positive: [
        'Dostawa była szybka, a paczka dobrze zapakowana.',
        'Obsługa była miła i pomocna.',
        'Zamówienie było proste i szybkie.',
        'Obsługa klienta odpowiedziała w ciągu jednego dnia.',
      ],
      mixed: [
        'Dostawa trwała dłużej, niż zapowiadano.',
        'Sklep jest przyjemny, ale kolejka była długa.',
        'Obsługa klienta była uprzejma, ale powolna.',
        'Opakowanie mogłoby być staranniejsze.',
      ],
      negative: [
        'Paczka dotarła z opóźnieniem i uszkodzona.',
        'Nikt nie odpowiedział na moje e-maile.',
        'Obsługa nie była pomocna.',
        'Zwrot pieniędzy trwał tygodniami.',
      ],
    },
    closers: {
      positive: ['Polecam.', 'Kupię ponownie.', 'Gorąco polecam.'],
      mixed: ['Jest w porządku, nic więcej.', 'Może kupię ponownie.', 'Warto kupić na promocji.'],
      negative: ['Nie polecam.', 'Więcej nie kupię.', 'Zwróciłem go.'],
    },
    replies: {
      positive: [
        'Dziękujemy za opinię, cieszymy się, że zakup spełnił oczekiwania!',
        'Dziękujemy za zaufanie, do zobaczenia!',
      ],
      mixed: [
        'Dziękujemy za opinię, przekażemy uwagi naszemu zespołowi.',
        'Dziękujemy, pracujemy nad poprawą w tym zakresie.',
      ],
      negative: [
        'Przykro nam z powodu tych doświadczeń; nasz dział obsługi klienta skontaktuje się z Państwem.',
        'Przepraszamy za ten problem; skontaktowaliśmy się z Państwem e-mailem, aby znaleźć rozwiązanie.',
      ],
    },
  },
  pt: {
    openers: {
      positive: [
        'Muito satisfeito com esta compra.',
        'Excelente, exatamente o que procurava.',
        'Ótima relação qualidade-preço, estou encantado.',
        'Muito bom, melhor do que esperava.',
      ],
      mixed: [
        'Razoável no geral, mas não perfeito.',
        'Bom pelo preço.',
        'Tem pontos bons e outros menos bons.',
        'Mediano, como esperado.',
      ],
      negative: [
        'Desiludido com esta compra.',
        'Nada do que eu esperava.',
        'Má relação qualidade-preço.',
        'Infelizmente, não estou satisfeito.',
      ],
    },
    product: {
      positive: [
        'A qualidade é excelente e o acabamento cuidado.',
        'Corresponde perfeitamente à descrição.',
        'Resistente, confortável e fácil de usar.',
        'Os materiais parecem de gama alta.',
      ],
      mixed: [
        'A qualidade é razoável, mas o acabamento podia ser melhor.',
        'Funciona, embora as instruções não sejam claras.',
        'A cor é um pouco diferente das fotos.',
        'Bonito design, mas parece um pouco frágil.',
      ],
      negative: [
        'Partiu-se ao fim de poucos dias.',
        'A qualidade está muito abaixo das fotos.',
        'O tamanho não corresponde à descrição.',
        'Os materiais parecem baratos.',
      ],
    },
    service: {
      positive: [
        'A entrega foi rápida e a encomenda vinha bem embalada.',
        'Os funcionários foram simpáticos e prestáveis.',
        'Encomendar foi simples e rápido.',
        'O apoio ao cliente respondeu num dia.',
      ],
      mixed: [
        'A entrega demorou mais do que o anunciado.',
        'A loja é agradável, mas a fila era longa.',
        'O apoio ao cliente foi educado, mas lento.',
        'A embalagem podia ser mais cuidada.',
      ],
      negative: [
        'A encomenda chegou atrasada e danificada.',
        'Ninguém respondeu aos meus e-mails.',
        'Os funcionários não foram prestáveis.',
        'O reembolso demorou semanas.',
      ],
    },
    closers: {
      positive: ['Recomendo.', 'Vou voltar a comprar.', 'Muito recomendável.'],
      mixed: ['Está bem, nada mais.', 'Talvez volte a comprar.', 'Vale a pena em promoção.'],
      negative: ['Não recomendo.', 'Não volto a comprar.', 'Devolvi-o.'],
    },
    replies: {
      positive: [
        'Obrigado pela sua avaliação, ficamos contentes por estar satisfeito!',
        'Obrigado pela sua confiança, até breve!',
      ],
      mixed: [
        'Obrigado pelo seu comentário, vamos transmitir as suas observações à nossa equipa.',
        'Obrigado, estamos a trabalhar para melhorar neste ponto.',
      ],
      negative: [
        'Lamentamos a sua experiência; o nosso apoio ao cliente vai entrar em contacto consigo.',
        'Pedimos desculpa por este problema e contactámo-lo por e-mail para encontrar uma solução.',
      ],
    },
  },
  sk: {
    openers: {
      positive: [
        'S týmto nákupom som veľmi spokojný.',
        'Výborné, presne to, čo som hľadal.',
        'Skvelý pomer ceny a kvality, som nadšený.',
        'Naozaj dobré, lepšie, ako som čakal.',
      ],
      mixed: [
        'Celkovo slušné, ale nie dokonalé.',
        'Za tú cenu v poriadku.',
        'Niečo je dobré, niečo menej.',
        'Priemerné, ako som čakal.',
      ],
      negative: [
        'S týmto nákupom som sklamaný.',
        'Vôbec nie to, čo som čakal.',
        'Zlý pomer ceny a kvality.',
        'Žiaľ, nie som spokojný.',
      ],
    },
    product: {
      positive: [
        'Kvalita je vynikajúca a spracovanie starostlivé.',
        'Presne zodpovedá popisu.',
        'Pevné, pohodlné a ľahko sa používa.',
        'Materiály pôsobia prémiovo.',
      ],
      mixed: [
        'Kvalita je v poriadku, ale spracovanie by mohlo byť lepšie.',
        'Funguje, aj keď návod je nejasný.',
        'Farba sa trochu líši od fotiek.',
        'Pekný dizajn, ale pôsobí trochu krehko.',
      ],
      negative: [
        'Po pár dňoch sa to pokazilo.',
        'Kvalita je oveľa horšia ako na fotkách.',
        'Veľkosť nezodpovedá popisu.',
        'Materiály pôsobia lacno.',
      ],
    },
    service: {
      positive: [
        'Doručenie bolo rýchle a balík dobre zabalený.',
        'Personál bol milý a ochotný.',
        'Objednávka bola jednoduchá a rýchla.',
        'Zákaznícky servis odpovedal do jedného dňa.',
      ],
      mixed: [
        'Doručenie trvalo dlhšie, ako bolo oznámené.',
        'Obchod je príjemný, ale rad bol dlhý.',
        'Zákaznícky servis bol zdvorilý, ale pomalý.',
        'Balenie by mohlo byť starostlivejšie.',
      ],
      negative: [
        'Balík prišiel neskoro a poškodený.',
        'Nikto neodpovedal na moje e-maily.',
        'Personál nebol ochotný.',
        'Vrátenie peňazí trvalo týždne.',
      ],
    },
    closers: {
      positive: ['Odporúčam.', 'Kúpim znova.', 'Vrelo odporúčam.'],
      mixed: ['Je to v poriadku, nič viac.', 'Možno kúpim znova.', 'V zľave sa oplatí.'],
      negative: ['Neodporúčam.', 'Už nekúpim.', 'Vrátil som to.'],
    },
    replies: {
      positive: [
        'Ďakujeme za vaše hodnotenie, sme radi, že ste spokojní!',
        'Ďakujeme za vašu dôveru, tešíme sa na vás!',
      ],
      mixed: [
        'Ďakujeme za spätnú väzbu, vaše pripomienky odovzdáme nášmu tímu.',
        'Ďakujeme, pracujeme na zlepšení v tomto bode.',
      ],
      negative: [
        'Mrzí nás vaša skúsenosť; náš zákaznícky servis vás bude kontaktovať.',
        'Ospravedlňujeme sa za tento problém a kontaktovali sme vás e-mailom, aby sme našli riešenie.',
      ],
    },
  },
  tr: {
    openers: {
      positive: [
        'Bu alışverişten çok memnunum.',
        'Mükemmel, tam aradığım şey.',
        'Fiyat-performans harika, çok mutluyum.',
        'Gerçekten iyi, beklediğimden daha iyi.',
      ],
      mixed: [
        'Genel olarak fena değil ama mükemmel de değil.',
        'Fiyatına göre iyi.',
        'İyi yanları da var, kötü yanları da.',
        'Ortalama, beklediğim gibi.',
      ],
      negative: [
        'Bu alışverişten hayal kırıklığına uğradım.',
        'Hiç beklediğim gibi değil.',
        'Fiyatına göre kötü.',
        'Maalesef memnun değilim.',
      ],
    },
    product: {
      positive: [
        'Kalitesi mükemmel, işçiliği özenli.',
        'Açıklamaya tamamen uyuyor.',
        'Sağlam, rahat ve kullanımı kolay.',
        'Malzemeler kaliteli hissettiriyor.',
      ],
      mixed: [
        'Kalitesi idare eder ama işçiliği daha iyi olabilirdi.',
        'Çalışıyor ama kullanım kılavuzu anlaşılır değil.',
        'Rengi fotoğraflardan biraz farklı.',
        'Tasarımı güzel ama biraz kırılgan görünüyor.',
      ],
      negative: [
        'Birkaç gün sonra bozuldu.',
        'Kalitesi fotoğraflardakinin çok altında.',
        'Beden açıklamayla uyuşmuyor.',
        'Malzemeler ucuz hissettiriyor.',
      ],
    },
    service: {
      positive: [
        'Teslimat hızlıydı ve paket iyi korunmuştu.',
        'Personel güler yüzlü ve yardımseverdi.',
        'Sipariş vermek kolay ve hızlıydı.',
        'Müşteri hizmetleri bir gün içinde yanıt verdi.',
      ],
      mixed: [
        'Teslimat duyurulandan uzun sürdü.',
        'Mağaza güzel ama kuyruk uzundu.',
        'Müşteri hizmetleri kibar ama yavaştı.',
        'Paketleme daha özenli olabilirdi.',
      ],
      negative: [
        'Paket geç ve hasarlı geldi.',
        'E-postalarıma kimse yanıt vermedi.',
        'Personel yardımcı olmadı.',
        'Para iadesi haftalar sürdü.',
      ],
    },
    closers: {
      positive: ['Tavsiye ederim.', 'Tekrar alırım.', 'Kesinlikle tavsiye ederim.'],
      mixed: ['İdare eder, o kadar.', 'Belki tekrar alırım.', 'İndirimdeyken alınabilir.'],
      negative: ['Tavsiye etmem.', 'Bir daha almam.', 'İade ettim.'],
    },
    replies: {
      positive: [
        'Değerlendirmeniz için teşekkür ederiz, memnun kalmanıza sevindik!',
        'Güveniniz için teşekkür ederiz, görüşmek üzere!',
      ],
      mixed: [
        'Geri bildiriminiz için teşekkür ederiz, görüşlerinizi ekibimize ileteceğiz.',
        'Teşekkür ederiz, bu konuda gelişmek için çalışıyoruz.',
      ],
      negative: [
        'Yaşadığınız deneyim için üzgünüz; müşteri hizmetlerimiz sizinle iletişime geçecek.',
        'Bu sorun için özür dileriz; bir çözüm bulmak için size e-posta ile ulaştık.',
      ],
    },
  },
}

const PEOPLE: Record<Language, People> = {
  bg: {
    male: ['Иван', 'Георги', 'Димитър', 'Николай'],
    female: ['Мария', 'Елена', 'Десислава', 'Петя'],
    lastMale: ['Иванов', 'Георгиев', 'Николов', 'Стоянов'],
    lastFemale: ['Иванова', 'Георгиева', 'Николова', 'Стоянова'],
  },
  cs: {
    male: ['Jan', 'Petr', 'Tomáš', 'Martin'],
    female: ['Jana', 'Lucie', 'Kateřina', 'Tereza'],
    lastMale: ['Novák', 'Svoboda', 'Dvořák', 'Černý'],
    lastFemale: ['Nováková', 'Svobodová', 'Dvořáková', 'Černá'],
  },
  de: {
    male: ['Lukas', 'Jonas', 'Felix', 'Matthias'],
    female: ['Anna', 'Lena', 'Sophie', 'Julia'],
    lastMale: ['Müller', 'Schmidt', 'Weber', 'Schäfer', 'Becker', 'Wagner'],
    lastFemale: ['Müller', 'Schmidt', 'Weber', 'Schäfer', 'Becker', 'Wagner'],
  },
  el: {
    male: ['Γιώργος', 'Νίκος', 'Δημήτρης', 'Κώστας'],
    female: ['Μαρία', 'Ελένη', 'Κατερίνα', 'Σοφία'],
    lastMale: ['Παπαδόπουλος', 'Νικολάου', 'Γεωργίου', 'Οικονόμου'],
    lastFemale: ['Παπαδοπούλου', 'Νικολάου', 'Γεωργίου', 'Οικονόμου'],
  },
  en: {
    male: ['James', 'Oliver', 'Harry', 'Daniel'],
    female: ['Emily', 'Sophie', 'Charlotte', 'Grace'],
    lastMale: ['Smith', 'Taylor', 'Brown', 'Wilson', "O'Brien", 'Walker'],
    lastFemale: ['Smith', 'Taylor', 'Brown', 'Wilson', "O'Brien", 'Walker'],
  },
  es: {
    male: ['Javier', 'Carlos', 'Pablo', 'Alejandro'],
    female: ['Lucía', 'María', 'Carmen', 'Elena'],
    lastMale: ['García', 'Martínez', 'López', 'Sánchez', 'Romero', 'Navarro'],
    lastFemale: ['García', 'Martínez', 'López', 'Sánchez', 'Romero', 'Navarro'],
  },
  fr: {
    male: ['Thomas', 'Nicolas', 'Julien', 'Antoine'],
    female: ['Camille', 'Léa', 'Chloé', 'Élodie'],
    lastMale: ['Martin', 'Bernard', 'Dubois', 'Lefèvre', 'Moreau', 'Étienne'],
    lastFemale: ['Martin', 'Bernard', 'Dubois', 'Lefèvre', 'Moreau', 'Étienne'],
  },
  it: {
    male: ['Marco', 'Luca', 'Giuseppe', 'Matteo'],
    female: ['Giulia', 'Francesca', 'Chiara', 'Sara'],
    lastMale: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano'],
    lastFemale: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano'],
  },
  nl: {
    male: ['Daan', 'Sem', 'Lucas', 'Bram'],
    female: ['Emma', 'Sanne', 'Lotte', 'Fleur'],
    lastMale: ['de Jong', 'Jansen', 'de Vries', 'van Dijk', 'Bakker', 'Visser'],
    lastFemale: ['de Jong', 'Jansen', 'de Vries', 'van Dijk', 'Bakker', 'Visser'],
  },
  pl: {
    male: ['Piotr', 'Krzysztof', 'Tomasz', 'Paweł'],
    female: ['Anna', 'Katarzyna', 'Magdalena', 'Agnieszka'],
    lastMale: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik'],
    lastFemale: ['Nowak', 'Kowalska', 'Wiśniewska', 'Wójcik'],
  },
  pt: {
    male: ['João', 'Tiago', 'Rui', 'Miguel'],
    female: ['Ana', 'Beatriz', 'Inês', 'Mariana'],
    lastMale: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa'],
    lastFemale: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa'],
  },
  sk: {
    male: ['Peter', 'Martin', 'Marek', 'Juraj'],
    female: ['Zuzana', 'Lucia', 'Veronika', 'Monika'],
    lastMale: ['Horváth', 'Kováč', 'Varga', 'Tóth'],
    lastFemale: ['Horváthová', 'Kováčová', 'Vargová', 'Tóthová'],
  },
  tr: {
    male: ['Mehmet', 'İbrahim', 'Emre', 'Burak'],
    female: ['Ayşe', 'Elif', 'Zeynep', 'Fatma'],
    lastMale: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Öztürk'],
    lastFemale: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Öztürk'],
  },
}

/** How often each language is the original one, and its locales (most common first). */
const LOCALES: Record<Language, { weight: number; locales: readonly string[] }> = {
  bg: { weight: 2, locales: ['bg_BG'] },
  cs: { weight: 3, locales: ['cs_CZ'] },
  de: { weight: 10, locales: ['de_DE', 'de_AT', 'de_CH'] },
  el: { weight: 2, locales: ['el_GR', 'el_CY'] },
  en: { weight: 14, locales: ['en_GB', 'en_US', 'en_IE'] },
  es: { weight: 8, locales: ['es_ES', 'es_MX'] },
  fr: { weight: 30, locales: ['fr_FR', 'fr_BE', 'fr_CH'] },
  it: { weight: 8, locales: ['it_IT'] },
  nl: { weight: 6, locales: ['nl_NL', 'nl_BE'] },
  pl: { weight: 5, locales: ['pl_PL'] },
  pt: { weight: 5, locales: ['pt_PT', 'pt_BR'] },
  sk: { weight: 2, locales: ['sk_SK'] },
  tr: { weight: 5, locales: ['tr_TR'] },
}

const LANGUAGE_WEIGHTS = LANGUAGES.map((language) => [language, LOCALES[language].weight] as const)

export function sentimentOf(rate: number): Sentiment {
  if (rate >= 4) return 'positive'
  if (rate === 3) return 'mixed'
  return 'negative'
}

/** A language of writing, weighted like a French merchant selling across Europe. */
export function pickLanguage(rng: Random): Language {
  return rng.weighted(LANGUAGE_WEIGHTS)
}

export function pickLocale(rng: Random, language: Language): string {
  const { locales } = LOCALES[language]
  // The first locale of a language is the most common one.
  return rng.chance(0.75) ? (locales[0] as string) : rng.pick(locales)
}

export function pickAuthor(rng: Random, language: Language): { firstname: string; lastname: string } {
  const people = PEOPLE[language]
  const female = rng.chance(0.5)
  return female
    ? { firstname: rng.pick(people.female), lastname: rng.pick(people.lastFemale) }
    : { firstname: rng.pick(people.male), lastname: rng.pick(people.lastMale) }
}

type Sentence = readonly [keyof Phrasebook, Sentiment, number]

function render(sentences: readonly Sentence[]): Record<Language, string> {
  const out = {} as Record<Language, string>
  for (const language of LANGUAGES) {
    const book = PHRASES[language]
    out[language] = sentences.map(([bank, sentiment, index]) => book[bank][sentiment][index]).join(' ')
  }
  return out
}

function sentence(rng: Random, bank: keyof Phrasebook, sentiment: Sentiment, not?: Sentence): Sentence {
  const size = PHRASES.en[bank][sentiment].length
  let index = rng.int(0, size - 1)
  if (not && not[0] === bank && not[1] === sentiment && not[2] === index) index = (index + 1) % size
  return [bank, sentiment, index]
}

/**
 * The text of a review with this rating, in every language. Ratings of 4 and 2 sometimes carry a
 * mixed remark, as real reviews do.
 */
export function composeReview(
  rng: Random,
  rate: number,
  subject: 'product' | 'service',
): Record<Language, string> {
  const sentiment = sentimentOf(rate)
  const opener = sentence(rng, 'openers', sentiment)
  const first = sentence(rng, subject, sentiment)
  const parts: Sentence[] = [opener, first]
  if (rng.chance(0.55)) {
    const secondSentiment = (rate === 4 || rate === 2) && rng.chance(0.4) ? 'mixed' : sentiment
    parts.push(sentence(rng, subject, secondSentiment, first))
  }
  if (rng.chance(0.6)) parts.push(sentence(rng, 'closers', sentiment))
  return render(parts)
}

/** A merchant reply to a review with this rating, in every language. */
export function composeReply(rng: Random, rate: number): Record<Language, string> {
  return render([sentence(rng, 'replies', sentimentOf(rate))])
}

const SUMMARIES: Record<Sentiment, readonly string[]> = {
  positive: [
    'Customers are very positive about the {name}: they praise its quality and finish and say it matches the description. A few mention minor issues with the instructions.',
    'Reviewers love the {name} for its solid build and premium feel, and many say they would buy it again. Some would like clearer instructions.',
    'The {name} is widely appreciated: buyers highlight its quality, comfort and value for money. Occasional remarks concern colours that differ slightly from the photos.',
  ],
  mixed: [
    'Opinions on the {name} are mostly positive: reviewers like the design and the price, while some find the finish could be better.',
    'Buyers find the {name} decent for its price. Several appreciate the design, others mention a slightly fragile feel and unclear instructions.',
  ],
  negative: [
    'Opinions on the {name} are mixed to negative: several reviewers report quality problems and sizes that do not match the description, though some find it fine for the price.',
    'Many reviewers are disappointed by the {name}, citing materials that feel cheap and items that broke quickly. A minority are satisfied given the price.',
  ],
}

/** The AI review summary of a product, written in English from its average rating. */
export function composeSummary(rng: Random, productName: string, average: number): string {
  const band: Sentiment = average >= 4 ? 'positive' : average >= 3 ? 'mixed' : 'negative'
  return rng.pick(SUMMARIES[band]).replace('{name}', productName)
}
