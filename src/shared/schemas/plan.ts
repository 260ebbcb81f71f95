import { z } from 'zod';
import { BILLING_PERIODS, PLAN_IDS } from '../plans';

// The plans' lists as the schemas check them (plans.ts holds the table; the shell reads it without zod).
export const planIdSchema = z.enum(PLAN_IDS, { error: 'Formule inconnue : choisissez Gratuit, Solo ou Équipe' });
export const billingPeriodSchema = z.enum(BILLING_PERIODS, { error: 'Période inconnue : choisissez mensuelle ou annuelle' });
