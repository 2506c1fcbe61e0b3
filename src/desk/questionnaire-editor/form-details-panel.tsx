import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { formSaveFailure, useUpdateForm, type DeskForm } from '../api/forms.ts';
import { documentDownloadFailedMessage, useDocumentDownload } from '../api/uploads.ts';
import { deskQuestionnairePath } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextAreaField, TextField } from '../../ui/form-fields.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import {
  formDetailsSchema,
  isHttpUrl,
  type FormDetailsValues,
} from '../shared/form-details-schema.ts';
import { FormPublicLink } from '../shared/form-public-link.tsx';
import { useLeavePageGuard } from '../shared/unsaved-changes.tsx';
import { FormFileUpload } from './form-file-upload.tsx';

/** Spec 8 and 9: shown for 3 s after a save. */
export const formSavedMessage = 'Daten wurden erfolgreich gespeichert!';
const statusMillis = 3000;

/** The file name as uploaded: object names are `forms/<id>/<uuid>-<file name>`. */
export function documentFileName(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  return last.replace(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/i, '');
}

const valuesOf = (form: DeskForm): FormDetailsValues => ({
  title: form.title,
  description: form.description,
  image: form.image ?? '',
});

function ImagePreview({ url }: { url: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  const shown = isHttpUrl(url) && broken !== url;
  return (
    <div className="flex aspect-video items-center justify-center overflow-hidden rounded-lg bg-slate-200">
      {shown ? (
        <img
          src={url}
          alt="Vorschau des Fragebogenbilds"
          className="size-full object-cover"
          onError={() => setBroken(url)}
        />
      ) : (
        <p className="p-4 text-center text-slate-700">
          {isHttpUrl(url) ? 'Das Bild konnte nicht geladen werden.' : 'Kein Bild hinterlegt'}
        </p>
      )}
    </div>
  );
}

function DownloadOffer({ form }: { form: DeskForm }) {
  const download = useDocumentDownload();
  if (!form.document) return null;
  const name = form.document;
  return (
    <div>
      <Button
        variant="secondary"
        disabled={download.isPending}
        onClick={() => download.mutate({ name, title: form.title })}
      >
        Angebot herunterladen
      </Button>
      {download.isError ? (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700">
          {documentDownloadFailedMessage}
        </p>
      ) : null}
    </div>
  );
}

/** The editor's left column: the form's details, image and offer PDF. */
export function FormDetailsPanel({ form }: { form: DeskForm }) {
  const update = useUpdateForm();
  const navigate = useNavigate();
  const [documentName, setDocumentName] = useState<string | null>(form.document);
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useZodForm(formDetailsSchema, {
    defaultValues: valuesOf(form),
  });

  // Leaving for another page (a link, the browser's back, closing the tab) asks first.
  const documentChanged = documentName !== form.document;
  const leaveGuard = useLeavePageGuard(isDirty || documentChanged, 'an diesem Fragebogen');
  // The address names the title: a renamed form moves to its new one, once the saved (clean)
  // form has rendered, so that the guard above lets it go.
  const [renamedTo, setRenamedTo] = useState<string | null>(null);
  useEffect(() => {
    if (renamedTo === null) return;
    void navigate(deskQuestionnairePath(renamedTo), { replace: true });
  }, [renamedTo, navigate]);

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), statusMillis);
    return () => clearTimeout(timer);
  }, [saved]);

  const submit = async (values: FormDetailsValues) => {
    setSaved(false);
    setFailure(null);
    try {
      const result = await update.mutateAsync({
        id: form.id,
        title: values.title,
        description: values.description,
        image: values.image || null,
        document: documentName,
      });
      reset(valuesOf(result));
      setDocumentName(result.document);
      setSaved(true);
      if (result.title !== form.title) setRenamedTo(result.title);
    } catch (error) {
      const { field, message } = formSaveFailure(error);
      if (field) setError(field, { message }, { shouldFocus: true });
      else setFailure(message);
    }
  };

  const image = useWatch({ control, name: 'image' });

  return (
    <section aria-labelledby="formular-ueberschrift" className="rounded-lg bg-white p-6 shadow">
      <h2 id="formular-ueberschrift" className="mb-4 text-xl font-bold text-slate-900">
        Angaben zum Fragebogen
      </h2>
      <ImagePreview url={image.trim()} />
      <FormPublicLink formId={form.id} className="mt-4" />
      <form
        noValidate
        aria-labelledby="formular-ueberschrift"
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="mt-4 flex flex-col gap-4"
      >
        <TextField
          label="Titel"
          required
          autoComplete="off"
          error={errors.title?.message}
          {...register('title')}
        />
        <TextAreaField
          label="Beschreibung"
          aria-required
          error={errors.description?.message}
          {...register('description')}
        />
        <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-300 p-4">
          <legend className="px-1 font-semibold text-slate-900">Bild</legend>
          <TextField
            label="Bild-URL"
            type="url"
            inputMode="url"
            placeholder="https://…"
            hint="Eine Adresse, die mit http:// oder https:// beginnt, oder lade ein Bild hoch."
            error={errors.image?.message}
            {...register('image')}
          />
          <FormFileUpload
            formId={form.id}
            kind="image"
            label="Bild hochladen"
            hint="PNG, JPEG, WebP oder GIF, höchstens 20 MB."
            onUploaded={(file) =>
              setValue('image', file.publicUrl, { shouldDirty: true, shouldValidate: true })
            }
          />
        </fieldset>
        <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-300 p-4">
          <legend className="px-1 font-semibold text-slate-900">Angebot</legend>
          <FormFileUpload
            formId={form.id}
            kind="document"
            label="Angebot (PDF)"
            hint="Eine PDF-Datei, höchstens 20 MB. Besucher erhalten sie nach dem Fragebogen."
            onUploaded={(file) => setDocumentName(file.name)}
          >
            <div className="mt-2 flex flex-wrap items-center gap-3">
              <p className="text-slate-800">
                {documentName ? (
                  <>
                    Dokument: <span className="font-medium">{documentFileName(documentName)}</span>
                  </>
                ) : (
                  'Kein Dokument hinterlegt'
                )}
              </p>
              {documentName ? (
                <Button variant="ghost" className="px-2" onClick={() => setDocumentName(null)}>
                  Dokument entfernen
                </Button>
              ) : null}
            </div>
            {documentChanged ? (
              <p className="mt-1 text-sm text-amber-900">
                Noch nicht gespeichert: die Änderung gilt, sobald du „Speichern“ wählst.
              </p>
            ) : null}
          </FormFileUpload>
        </fieldset>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Wird gespeichert …' : 'Speichern'}
          </Button>
        </div>
        <p role="status" className="min-h-6 font-medium text-green-800">
          {saved ? formSavedMessage : ''}
        </p>
      </form>
      <DownloadOffer form={form} />
      {leaveGuard}
    </section>
  );
}
