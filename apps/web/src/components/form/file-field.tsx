import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptList } from '@air/shared/validation';
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
