// The scripted-replay scenario on the README's example question. It stands in for a model's judgement:
// the brief it would plan, what a careful reader takes from each fixture page in demo/web/pages/, which
// pages a search would return, and the gap a critic cannot close. The pages are fixtures written for this
// replay (paraphrased, simplified), not sources.
//
// Shape of the run it produces (the server decides every step; this is what its rules lead to here):
// - The fixture web is one site (127.0.0.1). It stands in for the trials' own reports, so "Trials and
//   output" names it as its primary origin and its facts are VERIFIED; the other threads name none, so
//   what they find rests on one secondary site and stays PLAUSIBLE.
// - "Trials and output": round 1 reads the Iceland pages (one drifts off-topic and yields nothing), round 2
//   the UK pilot (one result is a dead link, skipped); both sub-questions answered from the primary
//   origin → CRITERIA_MET.
// - "Counter-evidence": the fixture web returns the same two pages for every query, so round 2 finds
//   nothing new on the same URLs → PLATEAU_STOPPED with SQ-2 still open and SQ-1 an unverified answer.
// - The critic names SQ-2 as a material gap; a critic thread finds the cost page and answers it, but from
//   one secondary site, so it searches again for a second site, finds the same page → PLATEAU_STOPPED with
//   the answer listed as unverified; two clean sign-offs follow, with one unanswerable gap kept as an open
//   question.
import type { Scenario } from './policy/scenario.js';

const TRIALS = 'Trials and output';
const COUNTER = 'Counter-evidence';

export const fourDayWeek: Scenario = {
  question: 'Is the four-day work week net-positive for output?',
  depth: 'deep',
  brief: {
    assumptions: [
      'A four-day week means fewer hours at the same pay, not the same hours compressed into four days.',
      'Output means productivity, service levels or revenue of the organisations that tried it.',
    ],
    threads: [
      {
        name: TRIALS,
        sub_questions: [
          { id: 'SQ-1', question: "What happened to productivity and service output in Iceland's public-sector trials?" },
          { id: 'SQ-2', question: 'What happened to company revenue in the 2022 UK pilot?' },
        ],
        subjects: ['Iceland trials', 'UK pilot'],
        primary_origins: ['127.0.0.1'],
      },
      {
        name: COUNTER,
        sub_questions: [
          { id: 'SQ-1', question: 'Where were four-day or shorter-hour schemes ended or reversed?' },
          { id: 'SQ-2', question: 'Did costs rise or output fall where working hours were cut?' },
        ],
        subjects: ['Utah', 'Gothenburg'],
      },
    ],
    disambiguation: { include: ['four-day week', 'shorter working week', 'productivity'], exclude: ['school week'] },
    known_facts: [{ fact: 'Iceland ran public-sector shorter-week trials between 2015 and 2019.', confidence: 'HIGH' }],
    scope: { period: { from: 2005, to: 2025 } },
  },
  topics: {
    "What happened to productivity and service output in Iceland's public-sector trials?": 't-iceland',
    'What happened to company revenue in the 2022 UK pilot?': 't-uk',
    'Where were four-day or shorter-hour schemes ended or reversed?': 't-reversed',
    'Did costs rise or output fall where working hours were cut?': 't-costs',
  },
  pages: [
    {
      path: '/iceland-trials.html',
      threads: [TRIALS],
      keywords: ['iceland', 'reykjavik'],
      facts: [
        {
          fact: 'Iceland ran two large shorter-week trials between 2015 and 2019.',
          quote: 'Between 2015 and 2019, Reykjavik City Council and the national government of Iceland ran two large trials of a shorter working week',
          topics: ['t-iceland-scope'],
          confidence: 'VERIFIED',
          confirmsKnown: true,
        },
        {
          fact: "Iceland's trials covered more than 2,500 public-sector workers.",
          quote: 'The trials covered more than 2,500 public-sector workers',
          topics: ['t-iceland-scope'],
          confidence: 'VERIFIED',
        },
        {
          fact: 'In most workplaces of the Iceland trials, productivity and services held steady or improved.',
          quote: 'productivity and service provision remained the same or improved in the majority of workplaces',
          topics: ['t-iceland'],
          confidence: 'VERIFIED',
        },
        {
          fact: 'Workers in the Iceland trials reported less stress and burnout.',
          quote: 'Workers reported less stress and burnout',
          topics: ['t-wellbeing'],
          confidence: 'VERIFIED',
        },
      ],
    },
    {
      path: '/iceland-after-the-trials.html',
      threads: [TRIALS],
      keywords: ['iceland'],
      facts: [
        {
          fact: 'By 2021 most of the Icelandic workforce had shorter hours or the right to them.',
          quote: 'By 2021, around 86 percent of the working population of Iceland had either moved to shorter hours or gained the right to shorten their hours',
          topics: ['t-adoption'],
          confidence: 'VERIFIED',
        },
      ],
    },
    {
      // Comes up for "trials" but is about school timetables: check_drift says skip.
      path: '/four-day-school-week.html',
      threads: [TRIALS],
      keywords: ['trials'],
      facts: [],
    },
    {
      path: '/uk-pilot-2022.html',
      threads: [TRIALS],
      keywords: ['uk pilot', 'britain'],
      facts: [
        {
          fact: 'The 2022 UK pilot involved 61 companies and about 2,900 employees.',
          quote: 'From June to December 2022, 61 companies in the UK took part in a coordinated four-day week pilot, covering around 2,900 employees',
          topics: ['t-uk-scope'],
          confidence: 'VERIFIED',
        },
        {
          fact: 'Revenue in the UK pilot stayed about the same, up 1.4% on average.',
          quote: 'Company revenue stayed broadly the same over the trial period, rising by 1.4 percent on average',
          topics: ['t-uk'],
          confidence: 'VERIFIED',
        },
        {
          fact: '56 of the 61 UK pilot companies kept the four-day week afterwards.',
          quote: 'Of the 61 companies, 56 continued with a four-day week after the pilot ended',
          topics: ['t-uk-adoption'],
          confidence: 'VERIFIED',
        },
      ],
    },
    {
      // Listed by search, not served: fetch_source refuses it and the round goes on without it.
      path: '/uk-pilot-employer-survey.html',
      threads: [TRIALS],
      keywords: ['uk pilot'],
      missing: true,
      facts: [],
    },
    {
      path: '/working-4-utah.html',
      threads: [COUNTER],
      keywords: ['utah'],
      always: true,
      facts: [
        {
          fact: "Utah's four-day week for state employees ended in 2011.",
          quote: 'In 2011 the state returned to a five-day week',
          topics: ['t-reversed'],
          confidence: 'PLAUSIBLE',
        },
        {
          fact: "Utah's energy savings were smaller than projected.",
          quote: 'Energy savings turned out smaller than the state had projected',
          topics: ['t-utah-energy'],
          confidence: 'PLAUSIBLE',
        },
      ],
    },
    {
      path: '/svartedalen-six-hour-day.html',
      threads: [COUNTER],
      keywords: ['gothenburg', 'svartedalen'],
      always: true,
      facts: [
        {
          fact: "Gothenburg did not make the Svartedalen six-hour day permanent.",
          quote: 'The city did not make the shorter day permanent when the trial ended in 2017',
          topics: ['t-reversed'],
          confidence: 'PLAUSIBLE',
        },
      ],
    },
    {
      path: '/svartedalen-costs.html',
      threads: ['critic'],
      keywords: ['costs', 'cost', 'staff'],
      facts: [
        {
          fact: 'Svartedalen needed 17 additional nurses to cover the shorter shifts.',
          quote: 'the city hired 17 additional nurses for the two years of the trial',
          topics: ['t-costs'],
          confidence: 'PLAUSIBLE',
        },
        {
          fact: 'The extra staff cost about 12 million kronor over two years.',
          quote: 'The extra staff cost about 12 million kronor over the two years',
          topics: ['t-costs'],
          confidence: 'PLAUSIBLE',
        },
      ],
    },
  ],
  answer: [
    [
      {
        text: "In the trials these sources describe, cutting hours without cutting pay left output about the same: Iceland's public-sector trials kept productivity and services steady",
        topics: ['t-iceland'],
        evidence: 'productivity and service provision remained the same or improved in the majority of workplaces',
      },
      { text: ', and revenue in the 2022 UK pilot held up', topics: ['t-uk'], evidence: 'Company revenue stayed broadly the same over the trial period, rising by 1.4 percent on average' },
    ],
    [
      {
        text: 'The counter-evidence is about cost rather than output per hour: where shorter days had to be covered by extra staff, costs rose',
        topics: ['t-costs'],
        evidence: 'The extra staff cost about 12 million kronor over the two years',
      },
    ],
  ],
  openQuestions: [
    {
      kind: 'modality',
      description: 'No source followed output for more than a few years after a switch, so long-run effects stay unknown.',
      query: 'four-day week output effects after five years',
    },
  ],
};
