import { z } from 'zod';
import { MAX_DOWNLOAD_BATCH, MAX_EMAIL_BATCH } from '../rules/network';
import { call, noInput } from './define';
import { SignTypeSchema } from '../model/issuing';

/** Options of the Vietnamese amount in words (docs/invoice-rules.md#amount-in-words): linh/lẻ, nghìn/ngàn, tư, chẵn. */
export const AmountInWordsOptionsSchema = z.object({
  zeroTens: z.enum(['linh', 'lẻ']),
  thousand: z.enum(['nghìn', 'ngàn']),
  /** "tư" for a 4 after a tens digit ≥ 2 (hai mươi tư) instead of "bốn". */
  useTu: z.boolean(),
  /** Append "chẵn" to a whole amount. */
  even: z.boolean(),
});

const Digits = z.number().int().min(0).max(15).nullable();

/**
 * Decimal digits the shop issues each kind of number with (OptionUserDefined); null = as many as
 * the figures typed on the invoice need. Every figure of the issuing form is rounded to these.
 */
export const DecimalDigitsSettingSchema = z.object({
  QuantityDecimalDigits: Digits,
  UnitPriceOCDecimalDigits: Digits,
  AmountOCDecimalDigits: Digits,
  AmountDecimalDigits: Digits,
  CoefficientDecimalDigits: Digits,
  ExchangRateDecimalDigits: Digits,
});
export type DecimalDigitsSetting = z.infer<typeof DecimalDigitsSettingSchema>;

/** How this PC issues invoices and what happens after. */
export const IssuingSettingsSchema = z.object({
  /** 2 HSM (needs certificateSN), 5 cash register; 3 and 6 their asynchronous variants. Cash-register series (type letter M) always use 5 or 6. */
  signType: SignTypeSchema,
  certificateSN: z.string().max(200).nullable(),
  /** The wait between two requests on one series (the service wants them one after another). */
  seriesGapMs: z.number().int().min(0).max(60_000),
  /** Download each issued invoice into the download folder. */
  autoDownload: z.boolean(),
  downloadTypes: z
    .array(z.enum(['Pdf', 'Xml']))
    .min(1)
    .max(2),
  /** Email the buyer: through this app's email queue, by the service itself (IsSendEmail), or not. Never both. */
  email: z.enum(['queue', 'service', 'off']),
  /** Series this PC issues on (empty: any); another PC issuing on one of them is warned about. */
  series: z.array(z.string().max(16)).max(50),
});
export type IssuingSettings = z.infer<typeof IssuingSettingsSchema>;

export const SettingsSchema = z.object({
  language: z.enum(['vi', 'en']),
  amountInWords: AmountInWordsOptionsSchema,
  /** Where bulk downloads go by default; null = ask each time. */
  downloadFolder: z.string().max(4096).nullable(),
  batchSizes: z.object({
    /** TransactionIDs per Download call (the service takes at most 50). */
    download: z.number().int().min(1).max(MAX_DOWNLOAD_BATCH),
    /** Invoices per sendemail call. */
    email: z.number().int().min(1).max(MAX_EMAIL_BATCH),
  }),
  decimalDigits: DecimalDigitsSettingSchema,
  issuing: IssuingSettingsSchema,
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  language: 'vi',
  amountInWords: { zeroTens: 'linh', thousand: 'nghìn', useTu: false, even: true },
  downloadFolder: null,
  batchSizes: { download: 50, email: 20 },
  decimalDigits: {
    QuantityDecimalDigits: null,
    UnitPriceOCDecimalDigits: null,
    AmountOCDecimalDigits: null,
    AmountDecimalDigits: null,
    CoefficientDecimalDigits: null,
    ExchangRateDecimalDigits: null,
  },
  issuing: { signType: 2, certificateSN: null, seriesGapMs: 1000, autoDownload: true, downloadTypes: ['Pdf'], email: 'queue', series: [] },
};

export const SettingsPatchSchema = z
  .object({
    language: SettingsSchema.shape.language.optional(),
    amountInWords: AmountInWordsOptionsSchema.partial().optional(),
    downloadFolder: SettingsSchema.shape.downloadFolder.optional(),
    batchSizes: SettingsSchema.shape.batchSizes.partial().optional(),
    decimalDigits: DecimalDigitsSettingSchema.partial().optional(),
    issuing: IssuingSettingsSchema.partial().optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export const settingsCalls = {
  'settings.get': call(noInput, SettingsSchema),
  'settings.update': call(SettingsPatchSchema, SettingsSchema),
} as const;

export const settingsEvents = {
  'settings.changed': SettingsSchema,
} as const;
