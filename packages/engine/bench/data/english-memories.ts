// An English check for hybrid vs lexical recall, written for this project (public domain, CC0):
// memories of the kind an agent keeps for a user, each with questions asked the way a person would
// ask later — often in other words than the memory uses — and questions about things that were
// never written down (the right answer is "nothing").

export interface EnglishMemory {
  title: string;
  summary: string;
  tags: string[];
  body: string;
  questions: string[];
  /**
   * Something a person says in passing later, not a question, that this memory bears on: "my laptop
   * battery is swelling again" should bring back the battery replaced under warranty. Written after
   * the small-talk rules were chosen; a rule that silences small talk by its form must not silence these.
   */
  says: string;
}

export const ENGLISH_MEMORIES: EnglishMemory[] = [
  {
    title: 'Tokyo node port 443 blocked',
    summary: 'The Tokyo relay stopped answering on 443; moved sing-box to 8443 and it came back.',
    tags: ['tokyo', 'sing-box', 'firewall'],
    body: 'Around nine in the evening the Tokyo relay stopped accepting connections on port 443. The provider had started filtering the port after an abuse report. I switched the sing-box inbound to 8443, updated the client profiles and the connection came back within minutes.',
    questions: ['what did we do when the Japan relay stopped accepting connections?', 'which port does sing-box listen on now in Tokyo?'],
    says: 'the Tokyo node is blocked again',
  },
  {
    title: 'Prefers tabs over spaces in Go',
    summary: 'The user wants gofmt defaults: tabs, no manual alignment.',
    tags: ['go', 'style'],
    body: 'When editing Go code, keep gofmt formatting: tabs for indentation and no hand-aligned comments. The user said mixed indentation in a pull request was the one thing that annoys reviewers most.',
    questions: ['how should indentation look in golang files?', 'what formatting does the user want for Go?'],
    says: 'writing some Go code now',
  },
  {
    title: 'Database backups every night at 02:00',
    summary: 'A cron job dumps Postgres to the NAS at 02:00 and keeps 14 days.',
    tags: ['postgres', 'backup', 'cron'],
    body: 'Set up pg_dump in a cron job that runs at two in the morning. The dump is compressed with zstd and copied to the NAS under /volume1/backups/db. Files older than fourteen days are removed by the same script.',
    questions: ['when do the nightly database dumps run?', 'how long are old Postgres backups kept?'],
    says: 'the nightly backup failed',
  },
  {
    title: 'Daughter allergic to peanuts',
    summary: 'Emma has a peanut allergy; always check recipes and restaurant menus.',
    tags: ['family', 'health'],
    body: 'Emma, the user\'s daughter, is allergic to peanuts. When suggesting recipes, snacks or restaurants for family outings, leave out anything with peanuts or peanut oil and mention cross-contamination.',
    questions: ['is there any food my kid cannot eat?', 'what should I avoid when picking a restaurant for the family?'],
    says: "ordering snacks for my daughter's party",
  },
  {
    title: 'Laptop battery replaced under warranty',
    summary: 'The ThinkPad battery was swollen; Lenovo replaced it for free in March.',
    tags: ['thinkpad', 'hardware', 'warranty'],
    body: 'The touchpad on the ThinkPad started lifting because the battery had swollen. Lenovo support confirmed it was covered and a technician swapped the battery on site in March. The new part number is 5B10W13930.',
    questions: ['what happened to the swollen notebook battery?', 'was the ThinkPad repair paid for?'],
    says: 'my laptop battery is swelling again',
  },
  {
    title: 'Deploys only on weekdays before 4 pm',
    summary: 'Team rule: no production deploys on Fridays after lunch or on weekends.',
    tags: ['deploy', 'team rule'],
    body: 'The team agreed that production releases happen Monday to Thursday before four in the afternoon. Friday afternoons and weekends are frozen unless it is a security fix approved by the on-call lead.',
    questions: ['can I ship to production on a Saturday?', 'what time is the cutoff for releases?'],
    says: 'planning a deploy this Friday evening',
  },
  {
    title: 'Flight to Lisbon booked for the conference',
    summary: 'TAP flight TP1351 on 14 May, window seat, hotel near Cais do Sodré.',
    tags: ['travel', 'lisbon', 'conference'],
    body: 'Booked the TAP flight TP1351 leaving on the fourteenth of May for the developer conference in Lisbon. Window seat 21A. The hotel is a ten minute walk from Cais do Sodré station; check-in after three.',
    questions: ['which flight am I taking to Portugal?', 'where is my hotel for the conference trip?'],
    says: 'packing for the Lisbon conference',
  },
  {
    title: 'Rust build cache on the CI runner',
    summary: 'sccache with a 20 GB local disk cache cut Rust CI builds from 14 to 5 minutes.',
    tags: ['rust', 'ci', 'sccache'],
    body: 'Installed sccache on the self-hosted runner and pointed RUSTC_WRAPPER at it. With a twenty gigabyte local disk cache a clean workspace build dropped from fourteen minutes to about five. Remember to clear the cache when the toolchain is upgraded.',
    questions: ['how did we make the Rust pipeline faster?', 'what should be done to the compiler cache after a toolchain upgrade?'],
    says: 'the Rust build on CI is slow again',
  },
  {
    title: 'Coffee order',
    summary: 'Flat white with oat milk, no sugar.',
    tags: ['preferences', 'coffee'],
    body: 'When ordering coffee for the user or suggesting a cafe, it is always a flat white with oat milk and no sugar. Decaf after five in the evening.',
    questions: ['how does the user take their coffee?', 'what drink should I get them in the evening?'],
    says: 'picking up coffee for them',
  },
  {
    title: 'Router admin password rotated',
    summary: 'Changed the home router admin password and disabled remote management.',
    tags: ['network', 'security', 'router'],
    body: 'Rotated the admin password of the home router after the firmware update and turned off remote management on the WAN side. The new password is in the family password manager under Network / Router.',
    questions: ['where is the new router password stored?', 'is remote administration of the home gateway still on?'],
    says: 'need to log into the router admin page',
  },
  {
    title: 'Migrated email to Fastmail',
    summary: 'Moved the personal domain mail from Gmail to Fastmail; MX records updated on 2 June.',
    tags: ['email', 'fastmail', 'dns'],
    body: 'Moved mail for the personal domain from Google Workspace to Fastmail. Imported all folders with their import tool, then switched the MX records on the second of June. SPF and DKIM records were added at the registrar the same day.',
    questions: ['which provider hosts my personal email now?', 'when were the mail exchanger records changed?'],
    says: 'setting up email on my new phone',
  },
  {
    title: 'Physiotherapy for the knee',
    summary: 'Twice a week physio for the left knee; avoid running until July.',
    tags: ['health', 'knee'],
    body: 'The physiotherapist recommended two sessions a week for the left knee and strengthening exercises at home. No running until July; cycling and swimming are fine.',
    questions: ['can I go jogging yet?', 'what exercise is allowed while my leg heals?'],
    says: 'my knee hurts after running',
  },
  {
    title: 'Kubernetes cluster upgrade to 1.30',
    summary: 'Upgraded the staging cluster to 1.30; ingress-nginx needed a chart bump first.',
    tags: ['kubernetes', 'upgrade', 'staging'],
    body: 'Upgraded the staging cluster from 1.28 to 1.30 in two steps. The ingress-nginx controller had to be bumped to chart 4.10 before the control plane upgrade, otherwise the admission webhook failed. Production is scheduled for next sprint.',
    questions: ['what broke during the k8s staging upgrade?', 'which version is the staging cluster on now?'],
    says: 'upgrading the kubernetes cluster again',
  },
  {
    title: 'Anniversary dinner reservation',
    summary: 'Table for two at Osteria Verde on 18 September at 19:30.',
    tags: ['family', 'reservation'],
    body: 'Reserved a table for two at Osteria Verde for the wedding anniversary on the eighteenth of September at half past seven. Asked for the table by the window and mentioned it is an anniversary.',
    questions: ['where are we going for our anniversary?', 'what time is the dinner booking in September?'],
    says: 'booking dinner for our anniversary',
  },
  {
    title: 'Python version for the data project',
    summary: 'The analytics repo is pinned to Python 3.11 because of a numba dependency.',
    tags: ['python', 'analytics'],
    body: 'Keep the analytics repository on Python 3.11. Numba in the version we use does not support 3.12 yet, and the notebooks fail to import. Use uv to create the environment from the lock file.',
    questions: ['why can we not move the analytics code to Python 3.12?', 'which interpreter version does the data repo need?'],
    says: 'setting up the data project on the new laptop',
  },
  {
    title: 'Monthly budget for groceries',
    summary: 'Groceries budget set to 600 euros a month, tracked in the shared spreadsheet.',
    tags: ['budget', 'household'],
    body: 'Agreed with my partner on a grocery budget of six hundred euros a month. Receipts go into the shared spreadsheet every Sunday evening, and anything above the budget is discussed at the start of the next month.',
    questions: ['how much do we spend on food shopping per month?', 'when do receipts get entered into the sheet?'],
    says: 'going grocery shopping this weekend',
  },
  {
    title: 'SSH key for the build server',
    summary: 'Use the ed25519 key ~/.ssh/build_ed25519 for the build server; RSA keys are refused.',
    tags: ['ssh', 'build server'],
    body: 'The build server only accepts ed25519 keys since the hardening change. Use ~/.ssh/build_ed25519 with the user deploy. Old RSA keys are refused and will just produce a permission denied error.',
    questions: ['why does the build box say permission denied with my old key?', 'which key do I use to log into the build machine?'],
    says: 'ssh to the build server fails',
  },
  {
    title: 'Garden watering schedule',
    summary: 'Drip irrigation runs at 6:00 for 20 minutes; tomatoes get extra on hot days.',
    tags: ['garden', 'irrigation'],
    body: 'The drip irrigation timer runs every morning at six for twenty minutes. On days above thirty degrees the tomato bed gets another ten minutes in the evening by hand.',
    questions: ['when does the sprinkler system water the plants?', 'what do the tomatoes need during a heat wave?'],
    says: 'heat wave coming, the garden needs water',
  },
  {
    title: 'Frontend uses pnpm, not npm',
    summary: 'The web app repo uses pnpm workspaces; running npm install breaks the lock file.',
    tags: ['frontend', 'pnpm'],
    body: 'The web application repository is a pnpm workspace. Running npm install there creates a package-lock.json and confuses CI. Always use pnpm install and pnpm run with the filter flag for a single package.',
    questions: ['which package manager should I use in the web repo?', 'what goes wrong if I run npm install in the frontend project?'],
    says: 'installing packages in the frontend',
  },
  {
    title: 'Car service due at 60,000 km',
    summary: 'The next service for the Skoda is at 60,000 km or in October, whichever comes first.',
    tags: ['car', 'maintenance'],
    body: 'The garage said the Skoda needs its next service at sixty thousand kilometres or in October, whichever comes first. Brake fluid is due at the same visit. Book it with the garage on Mill Road.',
    questions: ['when is the car due for maintenance?', 'which garage do we take the Skoda to?'],
    says: 'the car is making a strange noise',
  },
];

/** Questions about things never written down: the right recall is nothing. */
export const ENGLISH_OUT_OF_CORPUS: string[] = [
  'what is the wifi password at my parents house?',
  'which dentist did I see last year?',
  'how do I renew my passport?',
  'what was the score of the football match on Sunday?',
  'which vaccine did the dog get in spring?',
  'what is the name of the neighbour across the street?',
  'how much did the new sofa cost?',
  'which bank holds the mortgage?',
  'what is the license key for the photo editor?',
  'when is the next school parents evening?',
  'what did we decide about the kitchen renovation?',
  'which VPN provider do we pay for?',
  'how tall is the office ceiling?',
  'what is the Redis eviction policy in production?',
  'who is the contact at the insurance company?',
  'which GPU is in the gaming PC?',
];

export const ENGLISH_CHATTER: string[] = ['ok thanks', 'sounds good', 'go on', 'try again please', 'looks fine now', 'yes do it', 'hmm', 'great, next one'];
