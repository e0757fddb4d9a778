import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import type { TFormField } from './types';

interface TFileFieldProps {
  id: string;
  name: string;
  field: TFormField;
  value: unknown;
  invalid?: boolean;
  describedBy?: string;
  onChange: (files: FileList | null) => void;
}

/** The `accept` attribute's list: `image/png, image/*` or an array, lower-cased. */
function acceptList(accept: TFormField['accept']): string[] {
  if (!accept) return [];
  const list = typeof accept === 'string' ? accept.split(',') : accept;
  return list.map((a) => a.trim().toLowerCase()).filter(Boolean);
}

/** File input limited to the accepted MIME types, previewing a chosen image. */
export function FileField({ id, name, field, value, invalid, describedBy, onChange }: TFileFieldProps) {
  const { t } = useTranslation('form');
  const image = useMemo(() => {
    const first = value instanceof FileList ? value[0] : undefined;
    return first && first.type.startsWith('image/') ? first : undefined;
  }, [value]);
  // jsdom and very old browsers have no object URLs: then there is simply no preview.
  const preview = useMemo(
    () => (image && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(image) : undefined),
    [image],
  );
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  return (
    <div className="space-y-2">
      <Input
        id={id}
        name={name}
        type="file"
        accept={acceptList(field.accept).join(',') || undefined}
        disabled={field.disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.files)}
      />
      {image && preview && (
        <img
          src={preview}
          alt={t('form.file.preview', { name: image.name })}
          className="max-h-40 rounded-md border"
        />
      )}
    </div>
  );
}
